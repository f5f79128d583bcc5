import { join } from 'node:path';
import * as z from 'zod';
import { openFileStore } from '../../src/store/file/file-store.js';
import { teamPaths } from '../../src/team/paths.js';
import { DIST, spawnNode, type Child } from '../helpers/children.js';
import { tempHome } from '../helpers/temp.js';
import { waitFor } from '../helpers/wait.js';
import type { BenchSection, Figure } from './section.js';

/**
 * The claim race (issue 13): processes claim "the next task ready for me" on one board until
 * none is left, each completing what it won. Double claims and lost tasks must be zero; the
 * time is printed beside one claimer alone working through the same board, in the same run.
 */

const CHILD = join(DIST, 'test/fixtures/store-child.js');
const OPENER = join(DIST, 'test/store/file-store-opener.js');
const TASKS = 100;
const CLAIMERS = 8;
const ClaimReport = z.object({ claimed: z.array(z.string()), ms: z.number() });

type Race = { claims: number; distinct: number; lost: number; ms: number };

async function race(home: string, team: string, claimers: number): Promise<Race> {
  const store = openFileStore(teamPaths(home, team));
  await store.roster.ensure();
  for (let i = 1; i <= TASKS; i++) await store.tasks.create({ subject: `task ${i}`, blocked_by: i > 80 ? [String(i - 80)] : [] }, 'lead');
  const children: Child[] = Array.from({ length: claimers }, (_, i) =>
    spawnNode(CHILD, [OPENER, JSON.stringify({ home, team }), 'claim', `claimer-${i}`], { stdio: ['pipe', 'pipe', 'pipe'] }),
  );
  await waitFor(() => children.every((c) => c.stdout().includes('ready')), 'every claimer to be ready', 30_000);
  const started = performance.now();
  for (const child of children) child.process.stdin?.write('go\n');
  await waitFor(() => children.every((c) => c.process.exitCode !== null), 'every claimer to finish', 120_000);
  const ms = performance.now() - started;
  const claimed = children.flatMap((child) => {
    if (child.process.exitCode !== 0) throw new Error(`a claimer failed: ${child.stderr()}`);
    return ClaimReport.parse(JSON.parse(child.stdout().trim().split('\n').at(-1) ?? '')).claimed;
  });
  const completed = (await store.tasks.list({ status: 'completed' })).length;
  await store.close();
  return { claims: claimed.length, distinct: new Set(claimed).size, lost: TASKS - completed, ms };
}

export const taskBoardSections: BenchSection[] = [
  {
    name: `task board: ${CLAIMERS} processes race to claim ${TASKS} tasks (a fifth blocked by others)`,
    async run(): Promise<Figure[]> {
      const temp = tempHome('teams-bench-tasks-');
      try {
        const alone = await race(temp.home, 'alone', 1);
        const raced = await race(temp.home, 'raced', CLAIMERS);
        const doubles = raced.claims - raced.distinct;
        return [
          { label: 'claimers', value: String(CLAIMERS) },
          { label: 'tasks', value: String(TASKS) },
          { label: 'double claims', value: String(doubles), target: '0', met: doubles === 0 },
          { label: 'tasks lost (not completed)', value: String(raced.lost), target: '0', met: raced.lost === 0 },
          { label: `time, ${CLAIMERS} claimers`, value: `${raced.ms.toFixed(0)} ms` },
          { label: 'baseline: time, 1 claimer alone', value: `${alone.ms.toFixed(0)} ms` },
        ];
      } finally {
        temp.cleanup();
      }
    },
  },
];
