import { spawn } from 'node:child_process';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { setTimeout as delay } from 'node:timers/promises';
import { REPO_ROOT } from '../helpers/children.js';
import { tempHome } from '../helpers/temp.js';
import { waitFor } from '../helpers/wait.js';
import { resolveModelSettings } from '../../src/model/settings.js';
import { LeadRuntime } from '../../src/lead/lead.js';
import { readControlToken, sendControl } from '../../src/lead/control.js';
import { teamPaths } from '../../src/team/paths.js';
import { openFileStore } from '../../src/store/file/file-store.js';
import type { Member } from '../../src/store/roster.js';
import { percentile } from './stats.js';
import { megabytes, processMemory } from './process-memory.js';
import type { BenchSection, Figure } from './section.js';

const SPAWNS = 5;
/** How long the workers sit idle before their memory is read (the target is "after 15 s idle"). */
const IDLE_MS = 15_000;

/** A script in which every teammate plans when in plan mode, and otherwise just waits. */
function writeScript(dir: string): string {
  const demo = JSON.parse(readFileSync(join(REPO_ROOT, 'prompts', 'offline', 'demo.json'), 'utf8')) as { rules: unknown[] };
  const idle = { name: 'wait idle', when: { agent: 'teammate', turn: 1, system: '^(?![\\s\\S]*plan mode)' }, reply: { text: 'Waiting for instructions.' } };
  const path = join(dir, 'bench-script.json');
  writeFileSync(path, JSON.stringify({ ...demo, rules: [idle, ...demo.rules] }));
  return path;
}

/** The floor: how long starting a bare Node process and hearing from it over IPC takes here. */
async function bareNodeSpawnMs(): Promise<number> {
  const started = performance.now();
  const child = spawn(process.execPath, ['-e', 'process.send("ready"); process.disconnect()'], { stdio: ['ignore', 'ignore', 'ignore', 'ipc'] });
  await new Promise<void>((resolve) => child.once('message', () => resolve()));
  const elapsed = performance.now() - started;
  await new Promise<void>((resolve) => (child.exitCode !== null ? resolve() : child.once('exit', () => resolve())));
  return elapsed;
}

/**
 * Resolves once every worker has been idle for IDLE_MS by the roster's own clock
 * (`status_since`): memory right after a turn still holds that turn's garbage, and V8 gives
 * memory back only after a while without work. A worker that goes back to work restarts it.
 */
async function idleFor(members: () => Promise<Member[]>, names: readonly string[]): Promise<void> {
  for (;;) {
    const since = await waitFor(async () => {
      const workers = (await members()).filter((m) => names.includes(m.name));
      return workers.length === names.length && workers.every((m) => m.status === 'idle') && Math.max(...workers.map((m) => Date.parse(m.status_since)));
    }, 'the workers to go idle');
    const left = since + IDLE_MS - Date.now();
    if (left <= 0) return;
    // The figure is defined by time spent idle: this waits out the rest of it, then looks again.
    await delay(left);
  }
}

function median(values: readonly number[]): number {
  return percentile([...values].sort((a, b) => a - b), 50);
}

/** When the teammate's model loop next started a turn after `sinceMs` (from its event log). */
function turnStartAfter(logPath: string, sinceMs: number): number | undefined {
  for (const line of readFileSync(logPath, 'utf8').split('\n')) {
    if (!line.startsWith('{')) continue;
    const event = JSON.parse(line) as { at?: string; type?: string };
    if (event.type !== 'turn_start' || !event.at) continue;
    const at = Date.parse(event.at);
    if (at >= sinceMs) return at;
  }
  return undefined;
}

async function agentFigures(): Promise<Figure[]> {
  const { home, cleanup } = tempHome('teams-bench-');
  const paths = teamPaths(home, 'default');
  mkdirSync(paths.workspace, { recursive: true });
  const settings = resolveModelSettings({ offline: true, offlineScript: writeScript(home) });
  const store = openFileStore(paths);
  const members = async () => (await store.roster.load())?.members ?? [];
  const runtime = await LeadRuntime.start({ store, paths, settings, cwd: paths.workspace, permissionMode: 'default', planReviewer: 'human', graceMs: 2_000 });
  try {
    const floor: number[] = [];
    const spawnMs: number[] = [];
    for (let i = 0; i < SPAWNS; i++) {
      floor.push(await bareNodeSpawnMs());
      const started = performance.now();
      await runtime.teammates.spawn({ name: `worker${i}`, role: 'tester', prompt: 'wait', planMode: false });
      spawnMs.push(performance.now() - started);
    }
    const workers = (await members()).filter((m) => m.name.startsWith('worker'));
    await idleFor(members, workers.map((m) => m.name));
    const memory = workers.map((m) => processMemory(m.pid ?? 0));
    const rss = median(memory.map((m) => m.rssMiB));
    const pss = median(memory.map((m) => m.pssMiB));

    // Approve → resume: a teammate in plan mode waits for its plan; the decision goes through the control socket, as `teams approve` sends it.
    await runtime.teammates.spawn({ name: 'planner', role: 'coder', prompt: 'write notes', planMode: true });
    const plan = await waitFor(async () => (await store.requests.list({ state: 'pending', kind: 'plan' })).find((r) => r.from === 'planner'), "the planner's plan request");
    await waitFor(async () => (await members()).find((m) => m.name === 'planner')?.status === 'awaiting_approval', 'the planner to wait');
    const token = readControlToken(paths.controlToken) ?? '';
    const roundTripStart = performance.now();
    await sendControl(paths.controlSocket, token, { op: 'decide', request_id: 'plan-0000000000', approve: true });
    const roundTripMs = performance.now() - roundTripStart;
    const approvedAt = Date.now();
    const reply = await sendControl(paths.controlSocket, token, { op: 'decide', request_id: plan.request_id, approve: true });
    if (!reply?.ok) throw new Error(`the approval was not taken: ${JSON.stringify(reply)}`);
    const log = join(paths.root, 'logs', 'planner.log');
    const resumedAt = await waitFor(() => turnStartAfter(log, approvedAt), 'the planner to resume').catch((error: unknown) => {
      throw new Error(`${String(error)}; the planner's log ends: ${readFileSync(log, 'utf8').slice(-800)}`);
    });
    const resumeMs = resumedAt - approvedAt;

    const spawnP50 = median(spawnMs);
    const floorP50 = median(floor);
    return [
      { label: `bare node spawn → IPC message (floor, p50 of ${SPAWNS})`, value: `${floorP50.toFixed(0)} ms` },
      { label: `teammate spawn → ready (p50 of ${SPAWNS})`, value: `${spawnP50.toFixed(0)} ms`, target: '≤ 200 ms', met: spawnP50 <= 200 },
      { label: 'teammate spawn → ready, above the floor (p50s)', value: `${(spawnP50 - floorP50).toFixed(0)} ms`, target: '≤ 120 ms', met: spawnP50 - floorP50 <= 120 },
      { label: 'teammate spawn → ready (max)', value: `${Math.max(...spawnMs).toFixed(0)} ms` },
      { label: `teammate RSS after ${IDLE_MS / 1000} s idle (median of ${SPAWNS})`, value: `${rss.toFixed(1)} MiB (${megabytes(rss).toFixed(1)} MB)`, target: '≤ 75 MB', met: megabytes(rss) <= 75 },
      { label: `teammate PSS after ${IDLE_MS / 1000} s idle (median of ${SPAWNS})`, value: `${pss.toFixed(1)} MiB`, target: '≤ 35 MiB', met: pss <= 35 },
      { label: 'control socket round trip (floor)', value: `${roundTripMs.toFixed(1)} ms` },
      { label: 'approve → teammate resumes its model turn', value: `${resumeMs} ms`, target: '≤ 50 ms', met: resumeMs <= 50 },
    ];
  } finally {
    await runtime.stop('bench finished');
    cleanup();
  }
}

export const agentSections: BenchSection[] = [{ name: 'agents (offline model, real processes)', run: agentFigures }];
