import { render } from 'ink';
import { createRepl, stateFor } from './app.js';
import type { LeadEvent } from '../lead/index.js';
import type { ReplRuntime } from './runtime.js';
import type { StoreStatus } from '../store/index.js';

/**
 * Ink draws at most this many frames a second (its default is 30). While a shown teammate
 * streams, its lines take a frame every 33 ms (view-follower.ts); at 30 a keystroke could then
 * wait a whole frame behind them, at 60 half of one (npm run bench, "teammates streaming").
 */
export const MAX_FPS = 60;

export type ReplOptions = {
  /** A started lead runtime; the REPL stops it before it returns. */
  runtime: ReplRuntime;
  stdin?: NodeJS.ReadStream;
  stdout?: NodeJS.WriteStream;
  /** The team store's reachability (Redis): shown in the header, since nothing may write over Ink's frame. */
  storeStatus?: { subscribe(listener: (status: StoreStatus) => void): () => void };
};

export type ReplEnd = {
  /** The terminal went away (SIGHUP, or writes failing): the caller must not touch it again. */
  terminalClosed: boolean;
};

/**
 * Render the REPL for a started lead runtime. Resolves once the human has quit (/quit,
 * Ctrl+C, a signal) and the team has stopped: no teammate process is left.
 */
export async function startRepl(options: ReplOptions): Promise<ReplEnd> {
  const { runtime } = options;
  // The first state is read from the team's store, which takes time: what the runtime reports
  // meanwhile is kept and then applied, so no message is lost. A roster or queue among it may
  // be older than the state read; the next change brings a newer one.
  const early: LeadEvent[] = [];
  const keepEarly = runtime.events.subscribe((event) => early.push(event));
  const { store, controller, element } = createRepl(runtime, await stateFor(runtime));
  const disconnect = controller.connect();
  const unheard = options.storeStatus?.subscribe((status) => store.dispatch({ type: 'store_status', status }));
  keepEarly();
  for (const event of early) store.dispatch({ type: 'lead_event', event });
  // Ctrl+C is a key here (raw mode): the controller asks the team to stop rather than dying.
  const stdin = options.stdin ?? process.stdin;
  const stdout = options.stdout ?? process.stdout;
  const instance = render(element, { stdin, stdout, exitOnCtrlC: false, maxFps: MAX_FPS });
  // Signals from outside the terminal take the same way out; a second SIGINT forces it, like Ctrl+C.
  const onInterrupt = () => (store.getState().phase === 'running' ? controller.stop() : controller.forceStop());
  const onTerminate = () => controller.stop();
  let terminalClosed = false;
  const onHangUp = () => {
    terminalClosed = true;
    controller.stop();
  };
  // A closed terminal fails Ink's writes and the keyboard's reads (EIO): not a crash, a reason
  // to stop the team. Whichever comes first (the read, the write or SIGHUP) depends on timing.
  // Left on when this returns, since Ink's last frame may fail the same way on the way out.
  stdout.on('error', onHangUp);
  stdin.on('error', onHangUp);
  process.on('SIGINT', onInterrupt);
  process.on('SIGTERM', onTerminate);
  process.on('SIGHUP', onHangUp);
  // The App never exits by itself: if Ink stops first (a render error, a signal it caught), the
  // team is still stopped before this returns, and a render error is rethrown for the CLI.
  const inkStopped = instance.waitUntilExit().then(
    () => ({ error: undefined }),
    (error: unknown) => ({ error }),
  );
  try {
    const first = await Promise.race([controller.done.then(() => undefined), inkStopped]);
    if (first) {
      controller.stop();
      await controller.done;
      if (first.error !== undefined) throw first.error;
    }
  } finally {
    process.off('SIGINT', onInterrupt);
    process.off('SIGTERM', onTerminate);
    process.off('SIGHUP', onHangUp);
    disconnect();
    unheard?.();
    instance.unmount();
    await instance.waitUntilExit();
  }
  return { terminalClosed };
}
