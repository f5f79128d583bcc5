/** Whatever was thrown, as an Error: for a report that needs a message, whatever the thrower threw. */
export function asError(error: unknown): Error {
  return error instanceof Error ? error : new Error(String(error));
}
