import { setTimeout as delay } from 'node:timers/promises';

/**
 * Wait until `condition` holds, re-checking every few milliseconds, or fail with what was
 * awaited once the deadline passes. Tests wait on conditions, never on fixed sleeps.
 */
export async function waitFor<T>(
  condition: () => T | undefined | false | null | Promise<T | undefined | false | null>,
  what: string,
  timeoutMs = 10_000,
): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await condition();
    if (value !== undefined && value !== false && value !== null) return value;
    if (Date.now() > deadline) throw new Error(`timed out after ${timeoutMs} ms waiting for ${what}`);
    await delay(5);
  }
}
