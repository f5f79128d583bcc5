import { join, resolve } from 'node:path';
import { Refused, quoted } from '../lib/index.js';
import { teamNameProblem } from './roster.js';

/**
 * Which store a team's processes share, named by a descriptor: `file:` (or nothing) for the
 * file store under the machine's state root (--home), `redis://…` or `rediss://…` for Redis.
 * Given as --store or TEAMS_STORE, and to a teammate by this environment variable only, never
 * on its command line: a Redis URL may carry a password, and argv is readable by anyone on the
 * machine.
 */
export const STORE_ENV = 'TEAMS_STORE';

export type StoreDescriptor = { kind: 'file' } | { kind: 'redis'; url: string };

const ACCEPTED = '`file:` (the default: the file store under --home) or a Redis URL, redis://… or rediss://…';

/**
 * The descriptor with any `user:password@` replaced by `***@`: the only form an error message,
 * a log or a status line may show.
 */
export function redactDescriptor(descriptor: string): string {
  return descriptor.replace(/^([a-z][a-z0-9+.-]*:\/\/)[^/?#]*@/i, '$1***@');
}

/** What a descriptor names; one this build cannot read is refused, saying what it accepts (never the password). */
export function parseStoreDescriptor(descriptor: string | undefined): StoreDescriptor {
  const text = descriptor?.trim() ?? '';
  if (text === '' || text === 'file:') return { kind: 'file' };
  const shown = quoted(redactDescriptor(text));
  if (/^file:/i.test(text)) throw new Refused(`store ${shown}: the file store lives under --home; give \`file:\` alone`);
  if (!/^rediss?:\/\//i.test(text)) throw new Refused(`unknown store ${shown}: give ${ACCEPTED}`);
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    throw new Refused(`store ${shown} is not a valid URL: give ${ACCEPTED}`);
  }
  if (url.hostname === '') throw new Refused(`store ${shown} names no host: give redis://[user:password@]host[:port]`);
  return { kind: 'redis', url: text };
}

/** The file store's directory of a team under the state root: <home>/<team>. The team's name is checked first. */
export function teamRoot(home: string, team: string): string {
  const problem = teamNameProblem(team);
  if (problem) throw new Error(problem);
  return join(resolve(home), team);
}
