import { launcherFor } from '../../src/sandbox/launcher.js';
import { bwrapProgram } from '../../src/sandbox/settings.js';
import { realShellIO, type ShellIO } from '../../src/tools/shell.js';
import { tempHome } from '../helpers/temp.js';
import { percentile } from './stats.js';
import type { BenchSection, Figure } from './section.js';

const RUNS = 40;

async function timings(shell: ShellIO, cwd: string): Promise<number[]> {
  const ms: number[] = [];
  for (let i = 0; i < RUNS; i++) {
    const started = performance.now();
    const result = await shell.exec('true', { cwd });
    if (result.exitCode !== 0) throw new Error(`the command failed: ${result.stderr}`);
    ms.push(performance.now() - started);
  }
  return ms.sort((a, b) => a - b);
}

/** What the sandbox adds to every command an agent runs: `true` with and without bubblewrap. */
export const sandboxSections: BenchSection[] = [
  {
    name: 'sandbox: the cost of one bash tool call',
    async run(): Promise<Figure[]> {
      const { home, cleanup } = tempHome('teams-bench-sandbox-');
      try {
        const hidden = { writable: true, hidden: [`${home}/state`] };
        const plain = await timings(realShellIO(), home);
        const sandboxed = await timings(realShellIO({ launch: launcherFor({ kind: 'bwrap', network: 'on', bwrap: bwrapProgram() }, () => hidden) }), home);
        const isolated = await timings(realShellIO({ launch: launcherFor({ kind: 'bwrap', network: 'none', bwrap: bwrapProgram() }, () => hidden) }), home);
        const line = (ms: number[]) => `${percentile(ms, 50).toFixed(1)} / ${percentile(ms, 99).toFixed(1)} ms`;
        return [
          { label: `\`true\` through /bin/sh, p50 / p99 of ${RUNS} (baseline)`, value: line(plain) },
          { label: '`true` in bubblewrap, network on, p50 / p99', value: line(sandboxed) },
          { label: '`true` in bubblewrap, --sandbox-network none, p50 / p99', value: line(isolated) },
        ];
      } finally {
        cleanup();
      }
    },
  },
];
