import { launcherFor } from '../../src/sandbox/launcher.js';
import { realShellIO } from '../../src/tools/shell.js';

/**
 * A process that runs one sandboxed command and exits: what it printed names the cgroups the
 * command ran in, which must be gone once this process is.
 */
const shell = realShellIO({ timeoutMs: 20_000, launch: launcherFor({ kind: 'bwrap', network: 'none', bwrap: 'bwrap' }, () => ({ writable: false, hidden: [] })) });
const result = await shell.exec('cat /proc/self/cgroup', { cwd: '/' });
process.stdout.write(result.stdout);
