import type { CommandGrant } from '../policy/index.js';
import type { ExecResult } from './shell.js';

// What programs print when the sandbox's read-only working directory refuses a write.
const READ_ONLY = /read-only file system|EROFS/i;
// ...and when there is no network: no route, no interface but loopback, no name resolution.
const OFFLINE = /network is unreachable|ENETUNREACH|could not resolve host|getaddrinfo|EAI_AGAIN|ENOTFOUND|temporary failure in name resolution|name or service not known|no route to host|unable to resolve/i;

/**
 * What a failed command is told when it failed on what its grant withheld, so that the model
 * asks for the power instead of retrying or working around it. Undefined when nothing suggests so.
 */
export function sandboxHint(result: ExecResult, grant: CommandGrant): string | undefined {
  const said = `${result.stdout}\n${result.stderr}`;
  const hints: string[] = [];
  if (!grant.write && READ_ONLY.test(said)) {
    hints.push('[the working directory was read-only for this command: a command runs with write access only when you call bash with write: true, which asks the human unless a rule allows it]');
  }
  if (!grant.network && OFFLINE.test(said)) {
    hints.push('[this command had no network: a command reaches the network only when you call bash with network: true, which asks the human unless a network rule allows it]');
  }
  return hints.length > 0 ? hints.join('\n') : undefined;
}
