import { statSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { watch } from 'chokidar';

/**
 * Wake-ups for readers of files that other processes write. A watcher event only says
 * "something under these paths may have changed": chokidar throttles and merges events,
 * so the reader must rescan on every hint and never count events as messages.
 */

/** Stops watching; resolves once no further hint will be given. */
export type StopWatching = () => Promise<void>;

/** The directory a raw event came from: one of the absolute paths handed to chokidar. */
function watchedPathOf(details: unknown): string | undefined {
  if (typeof details !== 'object' || details === null || !('watchedPath' in details)) return undefined;
  return typeof details.watchedPath === 'string' ? details.watchedPath : undefined;
}

function isDirectory(path: string): boolean {
  try {
    return statSync(path).isDirectory();
  } catch {
    return false;
  }
}

/**
 * Call `onHint` whenever something under `paths` may have changed: for a directory, any entry
 * in it; for a file (existing or not yet), the file. Resolves once the watcher is ready: a
 * change made after that is hinted, one made before it is not, so callers rescan once after
 * this resolves. The directory holding each file must exist. Watcher errors after start (an
 * inotify limit reached, say) go to `onError`: wake-ups may be missing from then on.
 *
 * Only directories are watched, files through their directory: the directory's watch sees a
 * file created, appended to or replaced by a rename alike, where a watch on the file itself
 * misses a file that does not exist yet and goes deaf when the file is renamed over.
 */
export async function watchForHints(
  paths: readonly string[],
  onHint: () => void,
  onError: (error: unknown) => void = (error) => process.emitWarning(error instanceof Error ? error : String(error)),
): Promise<StopWatching> {
  const wholeDirs = new Set<string>();
  const files = new Set<string>();
  for (const path of paths.map((p) => resolve(p))) {
    if (isDirectory(path)) wholeDirs.add(path);
    else files.add(path);
  }
  const dirs = new Set([...wholeDirs, ...[...files].map((file) => dirname(file))]);
  for (const dir of dirs) if (!isDirectory(dir)) throw new Error(`cannot watch for changes in ${dir}: it is not a directory`);

  const watcher = watch([...dirs], {
    ignoreInitial: true,
    depth: 0,
    // Both delay events to tidy up editor saves (atomic holds unlinks back 100 ms and hides
    // dotfiles; awaitWriteFinish polls sizes for seconds): a hint wants neither.
    atomic: false,
    awaitWriteFinish: false,
    ignorePermissionErrors: true,
    // The directory's own watch reports every change to its entries, so chokidar need not add
    // a watch (and a stat) per entry, which under a stream of messages costs more than the
    // delivery itself.
    ignored: (path: string) => !dirs.has(path),
  });
  // 'raw' comes straight from fs.watch, before the readdir-and-stat chokidar does ahead of its
  // own events, so it is the earliest hint. It names the entry, which spares a file's readers
  // the changes to its neighbours.
  watcher.on('raw', (_event, name, details) => {
    const dir = watchedPathOf(details);
    if (dir === undefined || wholeDirs.has(dir) || !name || files.has(join(dir, name))) onHint();
  });
  // What chokidar itself reports (a watched directory removed, say) is a hint too.
  watcher.on('all', onHint);
  try {
    await new Promise<void>((ready, fail) => {
      watcher.once('ready', ready);
      watcher.once('error', fail);
    });
  } catch (error) {
    await watcher.close();
    throw error;
  }
  watcher.on('error', onError);
  return () => watcher.close();
}

/**
 * Hints for one file that is only ever appended to, never renamed over (an agent's log), which
 * must exist. Watched as itself, not through its directory: its neighbours' writes (other
 * teammates streaming into theirs, hundreds a second) wake nobody.
 */
export async function watchAppendsForHints(file: string, onHint: () => void): Promise<StopWatching> {
  const watcher = watch(resolve(file), { ignoreInitial: true, atomic: false, awaitWriteFinish: false, ignorePermissionErrors: true });
  watcher.on('raw', onHint);
  watcher.on('all', onHint);
  await new Promise<void>((ready, fail) => {
    watcher.once('ready', ready);
    watcher.once('error', fail);
  }).catch(async (error: unknown) => {
    await watcher.close();
    throw error;
  });
  watcher.on('error', (error) => process.emitWarning(error instanceof Error ? error : String(error)));
  return () => watcher.close();
}

/** Rethrow outside the current call chain, as an uncaught exception: never swallowed. */
export function rethrowLater(error: unknown): void {
  queueMicrotask(() => {
    throw error;
  });
}

export type DrainRunner = {
  /** Something may have changed: drain soon, or once more after the drain under way. */
  hint(): void;
  /** Resolves when no drain is running or pending. */
  idle(): Promise<void>;
  /** Ignore further hints; resolves once the drain under way (if any) has finished. */
  close(): Promise<void>;
};

/**
 * How long a scheduled drain may wait while hints keep coming. libuv reads a watcher's events
 * until there are none left before it runs anything scheduled: while writers keep a reader's
 * watcher busy faster than it handles the events, a drain left to setImmediate would wait
 * until they stop, and the backlog would grow all that time.
 */
const STARVED_MS = 2;

/**
 * Run `drain` after hints, one drain at a time. Hints that arrive during a drain coalesce
 * into exactly one more drain after it, so a change is never missed and a burst of hints
 * costs two scans, not one per hint. Errors thrown by `drain` go to `onError` (by default
 * rethrown outside the runner, so never swallowed); later hints still run.
 */
export function createDrainRunner(drain: () => Promise<void> | void, onError: (error: unknown) => void = rethrowLater): DrainRunner {
  let scheduled = false;
  let scheduledAt = 0;
  /** Whether the code that scheduled the drain has returned: later hints come from other events. */
  let laterTurn = false;
  let running = false;
  let again = false;
  let closed = false;
  let waiters: (() => void)[] = [];

  const settle = () => {
    const done = waiters;
    waiters = [];
    for (const resolveWaiter of done) resolveWaiter();
  };

  // Hands what drain() throws to onError: it does not reject.
  const run = async () => {
    scheduled = false;
    running = true;
    while (!closed) {
      again = false;
      try {
        await drain();
      } catch (error) {
        onError(error);
      }
      if (!again) break;
    }
    running = false;
    settle();
  };

  const idle = () => (running || scheduled ? new Promise<void>((resolveWaiter) => waiters.push(resolveWaiter)) : Promise.resolve());

  return {
    hint() {
      if (closed) return;
      if (running) {
        again = true;
      } else if (!scheduled) {
        scheduled = true;
        scheduledAt = performance.now();
        laterTurn = false;
        queueMicrotask(() => (laterTurn = true));
        // setImmediate runs right after the poll phase that delivered the event, so all the
        // watcher events read in one loop turn share one drain. A drain run in the meantime
        // (below) has cleared `scheduled`: nothing is left to do then.
        setImmediate(() => {
          if (scheduled && !running) void run();
        });
      } else if (laterTurn && performance.now() - scheduledAt >= STARVED_MS) {
        void run();
      }
    },
    idle,
    close() {
      closed = true;
      return idle();
    },
  };
}

/**
 * Run `look` once the watch on `paths` is ready (before this resolves), then after every hint
 * that one of them may have changed, one look at a time: a burst of writes costs two looks, not
 * one per write. The paths' directories must exist; the paths need not yet.
 */
export async function lookOnChange(
  paths: readonly string[],
  look: () => Promise<void> | void,
  watchPaths: (paths: readonly string[], onHint: () => void) => Promise<StopWatching> = watchForHints,
): Promise<{ close(): Promise<void> }> {
  const runner = createDrainRunner(look);
  const stop = await watchPaths(paths, () => runner.hint());
  // A change made before the watcher was ready gives no hint: this look covers it.
  runner.hint();
  await runner.idle();
  return {
    async close() {
      await stop();
      await runner.close();
    },
  };
}
