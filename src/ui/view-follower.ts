import { errorMessage } from '../lib/index.js';
import type { LogBatch, Subscription } from '../store/index.js';
import type { ReplStore } from './runtime.js';
import type { Store } from './store.js';

/**
 * A view opened on a long log starts this many lines from its end (`teams logs` has the rest):
 * about a megabyte of events, most of them streamed words, which fold into far fewer items.
 */
const VIEW_TAIL_LINES = 10_000;
/**
 * A streaming teammate's lines reach the screen at most this often. Ink draws a frame per state
 * change up to its own cap: a log read per delta (fifty a second) would keep it drawing, and a
 * keystroke would wait for the next free frame. Gathered to one change a frame, they leave room.
 */
const VIEW_FRAME_MS = 33;

/** Batches read one after another, as one: their lines in order, going on from the last. */
export function mergeBatches(batches: readonly LogBatch[]): LogBatch | undefined {
  const last = batches.at(-1);
  if (!last) return undefined;
  return { lines: batches.flatMap((b) => b.lines), next: last.next, skipped: batches[0]?.skipped ?? false };
}

/**
 * Follows the log of the one teammate whose view is shown, from where its view stopped, and
 * folds what it reads into the store a frame at a time. Only one follow is ever open: a hidden
 * view reads nothing, and whatever a closed follow still brings is dropped.
 */
export class ViewFollower {
  private following: Promise<Subscription | undefined> | undefined;
  private generation = 0;

  constructor(
    private readonly logs: ReplStore['agentLogs'],
    private readonly store: Store,
    private readonly onError: (text: string) => void,
  ) {}

  follow(name: string): void {
    this.stop();
    const generation = this.generation;
    let pending: LogBatch[] = [];
    let timer: NodeJS.Timeout | undefined;
    let lastFlush = -Infinity;
    const flush = () => {
      timer = undefined;
      lastFlush = performance.now();
      const batch = mergeBatches(pending);
      pending = [];
      if (batch && generation === this.generation) this.store.dispatch({ type: 'agent_log', name, batch });
    };
    // A line after a quiet spell goes at once; lines that follow it within a frame wait for its end.
    const listener = (batch: LogBatch) => {
      pending.push(batch);
      if (timer) return;
      const wait = lastFlush + VIEW_FRAME_MS - performance.now();
      if (wait <= 0) flush();
      else timer = setTimeout(flush, wait);
    };
    const from = this.store.getState().views[name]?.cursor;
    this.following = this.logs.follow(name, listener, { from, tail: VIEW_TAIL_LINES }).catch((error: unknown) => {
      this.onError(`cannot follow ${name}'s log: ${errorMessage(error)}`);
      return undefined;
    });
  }

  /** Nothing is followed from now on; the follow under way closes in the background. */
  stop(): void {
    this.generation++;
    const following = this.following;
    this.following = undefined;
    void following?.then((subscription) => subscription?.close());
  }
}
