import { render } from 'ink';
import { appendFileSync, existsSync, mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { logLineOf } from '../../src/store/agent-log.js';
import { openFileStore } from '../../src/store/file/file-store.js';
import type { ReplStore } from '../../src/ui/runtime.js';
import type { Store } from '../../src/ui/store.js';
import { DIST, spawnNode } from '../helpers/children.js';
import { waitFor } from '../helpers/wait.js';
import { setTimeout as delay } from 'node:timers/promises';
import type { Member } from '../../src/store/roster.js';
import { createRepl } from '../../src/ui/app.js';
import { MAX_FPS } from '../../src/ui/start.js';
import type { NewItem, State, TranscriptItem } from '../../src/ui/state/types.js';
import { FakeRuntime } from '../ui/fake-runtime.js';
import { agent, member, request, state } from '../ui/fixtures.js';
import { FakeStdin, FakeStdout, plain } from '../ui/terminal.js';
import type { BenchSection, Figure } from './section.js';
import { percentile } from './stats.js';

const TEAMMATES = 8;
const TRANSCRIPT_LINES = 1000;
const SAMPLES = 150;
/** Ink draws at most 30 frames a second; pacing past a frame's worth measures each input on an idle renderer, as a person typing would find it. */
const PACE_MS = 40;
const TARGET_MS = 50;

function transcript(lines: number): TranscriptItem[] {
  const kinds: NewItem[] = [
    { kind: 'user', text: 'Split the parser work between two teammates and report when done' },
    { kind: 'lead', text: "I'll hand the tokenizer to alice and the tests to bob, both in plan mode.", interrupted: false },
    { kind: 'tool', name: 'spawn_teammate', input: 'name=alice role=coder plan_mode=true', result: 'Spawned alice (coder, pid 4242)', isError: false },
    { kind: 'message', from: 'alice', type: 'message', text: 'Report: the tokenizer handles here-documents now; 14 tests added.' },
    { kind: 'info', text: 'approved permission request permission-0123456789 from bob' },
  ];
  return Array.from({ length: lines }, (_, i) => ({ ...(kinds[i % kinds.length] as NewItem), id: i + 1 }) as TranscriptItem);
}

function loadedState(): State {
  const statuses: Member['status'][] = ['working', 'idle', 'awaiting_approval', 'working', 'starting', 'idle', 'working', 'shutting_down'];
  const names = ['alice', 'bob', 'carol', 'dave', 'erin', 'frank', 'grace', 'heidi'].slice(0, TEAMMATES);
  const members = [member('lead'), ...names.map((name, i) => member(name, statuses[i] ?? 'idle', { role: i % 2 ? 'tester' : 'coder' }))];
  const items = transcript(TRANSCRIPT_LINES);
  return state({
    members,
    activity: Object.fromEntries(names.map((name) => [name, `editing src/${name}.ts, step ${name.length} of 9`])),
    queue: [request('plan-aaaa', 'plan', 'carol'), request('permission-bbbb', 'permission', 'alice'), request('permission-cccc', 'permission', 'dave')],
    transcript: items,
    nextId: items.length + 1,
  });
}

type Mounted = {
  runtime: FakeRuntime;
  stdin: FakeStdin;
  store: Store;
  /** Resolves with the milliseconds from `start` to the first write whose text includes `needle`. */
  frameWith(needle: string, start: number): Promise<number>;
  close(): void;
};

function mount(initial: State, agentLogs?: ReplStore['agentLogs']): Mounted {
  const runtime = new FakeRuntime();
  if (agentLogs) runtime.agentLogs = agentLogs;
  const repl = createRepl(runtime, initial);
  const disconnect = repl.controller.connect(60_000);
  const stdout = new FakeStdout();
  stdout.rows = 60;
  let waiting: { needle: string; start: number; resolve: (ms: number) => void } | undefined;
  const write = stdout.write.bind(stdout);
  stdout.write = (chunk: string) => {
    if (waiting && plain(chunk).includes(waiting.needle)) {
      waiting.resolve(performance.now() - waiting.start);
      waiting = undefined;
    }
    return write(chunk);
  };
  const stdin = new FakeStdin();
  const instance = render(repl.element, { stdout: stdout.asStream(), stdin: stdin.asStream(), exitOnCtrlC: false, patchConsole: false, maxFps: MAX_FPS });
  return {
    runtime,
    stdin,
    store: repl.store,
    frameWith: (needle, start) => new Promise((resolve) => (waiting = { needle, start, resolve })),
    close: () => {
      instance.unmount();
      disconnect();
    },
  };
}

/** Keystroke → the frame showing it: each key typed on the input line, waited for on screen. */
async function keystrokes(initial: State, streaming?: Streaming): Promise<number[]> {
  const app = mount(initial, streaming?.agentLogs);
  try {
    if (streaming?.view) await show(app, streaming.view);
    await delay(PACE_MS);
    const samples: number[] = [];
    let typed = '';
    for (let i = 0; i < SAMPLES; i++) {
      // Cleared now and then so the line stays short, as a typed line is.
      if (typed.length >= 40) {
        app.stdin.write('\u0015');
        typed = '';
        await delay(PACE_MS);
      }
      const char = String.fromCharCode(97 + (i % 26));
      typed += char;
      const start = performance.now();
      const shown = app.frameWith(`› ${typed}`, start);
      app.stdin.write(char);
      samples.push(await shown);
      await delay(PACE_MS);
    }
    return samples;
  } finally {
    app.close();
  }
}

/** `SAMPLES` times, paced: the milliseconds from sending token i (`send`) to the first frame that shows it. */
async function tokenSamples(app: Mounted, send: (token: string) => void): Promise<number[]> {
  await delay(PACE_MS);
  const samples: number[] = [];
  for (let i = 0; i < SAMPLES; i++) {
    const token = `tok${i}`;
    const shown = app.frameWith(token, performance.now());
    send(` ${token}`);
    samples.push(await shown);
    await delay(PACE_MS);
  }
  return samples;
}

/** A streamed token → the frame showing it, in the live turn below the transcript. */
async function tokens(initial: State): Promise<number[]> {
  const app = mount(initial);
  try {
    app.runtime.events.emit(agent({ type: 'turn_start', call: 1 }));
    return await tokenSamples(app, (text) => app.runtime.events.emit(agent({ type: 'text_delta', text })));
  } finally {
    app.close();
  }
}

/** Teammates' logs being appended to by a streamer process while the REPL runs. */
type Streaming = { agentLogs: ReplStore['agentLogs']; dir: string; view?: string };
const SHIFT_DOWN = '\u001b[1;2B';
/** Each streaming teammate appends a delta this often: 50 a second, as a model streaming text does. */
const STREAM_PACE_MS = 20;

/** Show `name`'s view (the first Shift+↓ from the lead) and wait for its log's first batch. */
async function show(app: Mounted, name: string): Promise<void> {
  app.stdin.write(SHIFT_DOWN);
  while (app.store.getState().views[name]?.cursor === undefined) await delay(5);
}

/**
 * A team's logs in a fresh directory, `streamed` of them appended to by a separate process the
 * whole time `run` runs. Logs follows are counted: a view not shown must open none.
 */
async function withStreamingTeam<T>(streamed: string[], run: (team: Streaming & { follows: () => number }) => Promise<T>): Promise<T> {
  const home = mkdtempSync(join(tmpdir(), 'teams-bench-view-'));
  const dir = join(home, 'logs');
  mkdirSync(dir);
  const store = openFileStore({ root: home, team: 'bench' });
  let follows = 0;
  const agentLogs: ReplStore['agentLogs'] = {
    follow: (name, listener, options) => {
      follows++;
      return store.agentLogs.follow(name, listener, options);
    },
  };
  const streamer = spawnNode(join(DIST, 'test/bench/log-streamer-fixture.js'), [dir, String(STREAM_PACE_MS), ...streamed], { stdio: ['pipe', 'pipe', 'pipe'], detached: false });
  try {
    // Going before measuring: every log has lines.
    await waitFor(() => streamed.every((name) => existsSync(join(dir, `${name}.log`))) || undefined, 'the streamer to start');
    return await run({ agentLogs, dir, follows: () => follows });
  } finally {
    streamer.process.stdin?.end();
    await streamer.exited;
    rmSync(home, { recursive: true, force: true });
  }
}

/** A line appended to the viewed teammate's log → the frame showing it, while the others stream. */
async function viewTokens(initial: State, team: Streaming, name: string): Promise<number[]> {
  const app = mount(initial, team.agentLogs);
  const log = join(team.dir, `${name}.log`);
  try {
    appendFileSync(log, logLineOf({ type: 'turn_start', call: 1 }));
    await show(app, name);
    return await tokenSamples(app, (text) => appendFileSync(log, logLineOf({ type: 'text_delta', text })));
  } finally {
    app.close();
  }
}

const ms = (value: number) => `${value.toFixed(2)} ms`;

function p99Figure(label: string, samples: number[]): Figure[] {
  const sorted = [...samples].sort((a, b) => a - b);
  const p99 = percentile(sorted, 99);
  return [
    { label: `${label}: p50`, value: ms(percentile(sorted, 50)) },
    { label: `${label}: p99`, value: ms(p99), target: `< ${TARGET_MS} ms`, met: p99 < TARGET_MS },
  ];
}

function figures(what: string, baseline: number[], loaded: number[]): Figure[] {
  const sorted = (values: number[]) => [...values].sort((a, b) => a - b);
  const base = sorted(baseline);
  const load = sorted(loaded);
  const p99 = percentile(load, 99);
  return [
    { label: `${what}, empty app: p50`, value: ms(percentile(base, 50)) },
    { label: `${what}, empty app: p99`, value: ms(percentile(base, 99)) },
    { label: `${what}, ${TEAMMATES} teammates + ${TRANSCRIPT_LINES} lines: p50`, value: ms(percentile(load, 50)) },
    { label: `${what}, ${TEAMMATES} teammates + ${TRANSCRIPT_LINES} lines: p99`, value: ms(p99), target: `< ${TARGET_MS} ms`, met: p99 < TARGET_MS },
  ];
}

export const uiSections: BenchSection[] = [
  {
    name: `REPL responsiveness (Ink, ${SAMPLES} samples each, paced ${PACE_MS} ms)`,
    async run() {
      const empty = state({ members: [member('lead')] });
      const keyBase = await keystrokes(empty);
      const keyLoaded = await keystrokes(loadedState());
      const tokenBase = await tokens(empty);
      const tokenLoaded = await tokens(loadedState());
      return [...figures('keystroke to frame', keyBase, keyLoaded), ...figures('streamed token to frame', tokenBase, tokenLoaded)];
    },
  },
  {
    name: `REPL with ${TEAMMATES} teammates streaming (a process appends to their logs, ${1000 / STREAM_PACE_MS} deltas/s each; ${SAMPLES} samples, paced ${PACE_MS} ms)`,
    async run() {
      const names = loadedState().members.map((m) => m.name).filter((name) => name !== 'lead');
      const viewed = names[0] ?? 'alice';
      const out: Figure[] = [];
      await withStreamingTeam(names, async (team) => {
        const leadShown = await keystrokes(loadedState(), team);
        out.push(...p99Figure(`keystroke to frame, lead shown, ${TEAMMATES} streaming`, leadShown));
        out.push({ label: "teammates' logs read while only the lead is shown", value: String(team.follows()), target: '0', met: team.follows() === 0 });
        const viewShown = await keystrokes(loadedState(), { ...team, view: viewed });
        out.push(...p99Figure(`keystroke to frame, ${viewed}'s view shown, ${TEAMMATES} streaming`, viewShown));
      });
      // The viewed teammate's deltas come from here (to time them); the other seven from the streamer.
      await withStreamingTeam(names.slice(1), async (team) => {
        out.push(...p99Figure(`log line to frame in ${viewed}'s view, ${TEAMMATES} streaming`, await viewTokens(loadedState(), team, viewed)));
      });
      return out;
    },
  },
];
