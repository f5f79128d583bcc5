import { launcherFor } from '../../src/sandbox/launcher.js';
import { realShellIO } from '../../src/tools/shell.js';
import { FULL_GRANT } from '../../src/policy/grant.js';

/**
 * A process started with a Unix socket on fd 19 (as an editor's terminal or a job server might
 * start the lead): it runs one sandboxed command that writes to that descriptor.
 */
const shell = realShellIO({ timeoutMs: 20_000, launch: launcherFor({ kind: 'bwrap', network: 'none', bwrap: 'bwrap' }, () => ({ writable: false, hidden: [] })) });
const result = await shell.exec('bash -c "echo leaked >&19" && echo wrote || echo refused', { cwd: '/', grant: FULL_GRANT });
process.stdout.write(result.stdout);
