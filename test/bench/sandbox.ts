import { mkdirSync } from 'node:fs';
import { bwrapArgs } from '../../src/sandbox/bwrap-args.js';
import { launcherFor } from '../../src/sandbox/launcher.js';
import { describeMechanism, limitMechanism } from '../../src/sandbox/command-limits.js';
import { DEFAULT_LIMITS } from '../../src/sandbox/limits.js';
import { bwrapProgram } from '../../src/sandbox/settings.js';
import { READ_ONLY_GRANT, type CommandGrant } from '../../src/policy/grant.js';
import { realShellIO, type ShellIO } from '../../src/tools/shell.js';
import { tempHome } from '../helpers/temp.js';
import { percentile } from './stats.js';
import type { BenchSection, Figure } from './section.js';

const RUNS = 40;
const APPROVED_WRITE: CommandGrant = { write: true, network: false };
/** What the sandbox and the limits may add to a command, at the median, over `/bin/sh -c true` alone. */
const TARGET_OVER_SH_MS = 15;

async function timings(shell: ShellIO, cwd: string, grant: CommandGrant = READ_ONLY_GRANT): Promise<number[]> {
  const ms: number[] = [];
  for (let i = 0; i < RUNS; i++) {
    const started = performance.now();
    const result = await shell.exec('true', { cwd, grant });
    if (result.exitCode !== 0) throw new Error(`the command failed: ${result.stderr}`);
    ms.push(performance.now() - started);
  }
  return ms.sort((a, b) => a - b);
}

/**
 * What the sandbox adds to every command an agent runs: `true` alone, then with the limits
 * (a cgroup made and removed per command, where there are cgroups), then in bubblewrap with
 * them, unasked (read-only, offline) and approved (writable), all in the same run.
 */
export const sandboxSections: BenchSection[] = [
  {
    name: 'sandbox: the cost of one bash tool call',
    async run(): Promise<Figure[]> {
      const { home, cleanup } = tempHome('teams-bench-sandbox-');
      try {
        // It exists, as a team's state does: a read-only working directory cannot have it made.
        mkdirSync(`${home}/state`);
        const view = { writable: true, hidden: [`${home}/state`] };
        const plain = await timings(realShellIO(), home);
        const limitedOnly = await timings(realShellIO({ launch: launcherFor({ kind: 'off' }, () => view) }), home);
        const sandboxed = realShellIO({ launch: launcherFor({ kind: 'bwrap', network: 'on', bwrap: bwrapProgram() }, () => view) });
        // Bubblewrap alone, no limits, no credential or git lookups: what the limits add is the difference.
        const bare = await timings(realShellIO({ launch: (command, cwd) => ({ file: bwrapProgram(), args: bwrapArgs({ cwd, writable: false, hidden: view.hidden, guarded: [], network: 'none' }, command), env: {} }) }), home);
        const unasked = await timings(sandboxed, home, READ_ONLY_GRANT);
        const approved = await timings(sandboxed, home, APPROVED_WRITE);
        const line = (ms: number[]) => `${percentile(ms, 50).toFixed(1)} / ${percentile(ms, 99).toFixed(1)} ms`;
        const over = (ms: number[]) => percentile(ms, 50) - percentile(plain, 50);
        const target = (ms: number[]): Pick<Figure, 'target' | 'met'> => ({ target: `≤ ${TARGET_OVER_SH_MS} ms p50 over /bin/sh (+${over(ms).toFixed(1)})`, met: over(ms) <= TARGET_OVER_SH_MS });
        return [
          { label: 'limits in force', value: describeMechanism(limitMechanism(), DEFAULT_LIMITS).split(':')[0] ?? '' },
          { label: `\`true\` through /bin/sh, p50 / p99 of ${RUNS} (baseline)`, value: line(plain) },
          { label: '`true` with the limits only (--no-sandbox), p50 / p99', value: line(limitedOnly), ...target(limitedOnly) },
          { label: '`true` in bare bubblewrap (read-only, offline, no limits), p50 / p99', value: line(bare) },
          { label: '`true` in bubblewrap + limits, unasked (read-only, offline), p50 / p99', value: line(unasked), ...target(unasked) },
          { label: '`true` in bubblewrap + limits, approved write (offline), p50 / p99', value: line(approved), ...target(approved) },
        ];
      } finally {
        cleanup();
      }
    },
  },
];
