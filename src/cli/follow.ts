/**
 * Run a --follow command until the user interrupts it, then close its watcher so the
 * process exits cleanly (exit 0, nothing left open). The signal handlers are in place
 * before `start` runs, so an early Ctrl+C is never the default "killed by SIGINT".
 */
export async function followUntilInterrupted(start: () => Promise<() => Promise<void>>): Promise<void> {
  let interrupted = false;
  let wake: () => void = () => undefined;
  const stop = () => {
    interrupted = true;
    wake();
  };
  process.once('SIGINT', stop);
  process.once('SIGTERM', stop);
  try {
    const close = await start();
    if (!interrupted) await new Promise<void>((resolve) => (wake = resolve));
    await close();
  } finally {
    process.off('SIGINT', stop);
    process.off('SIGTERM', stop);
  }
}
