import { createDrainRunner, watchForHints } from '../../files/wakeup.js';
import type { Subscription } from '../team-store.js';

/**
 * Run `look` once the watch on `file` is ready (before this resolves), then after every hint
 * that it may have changed, one look at a time: a burst of writes costs two looks, not one
 * per write. The file's directory must exist; the file need not yet.
 */
export async function lookOnChange(file: string, look: () => void): Promise<Subscription> {
  const runner = createDrainRunner(look);
  const stop = await watchForHints([file], () => runner.hint());
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

/** Whatever was thrown, as an Error for a watch's problem report. */
export function asError(error: unknown): Error {
  return error instanceof Error ? error : new Error(String(error));
}
