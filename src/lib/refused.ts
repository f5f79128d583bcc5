/**
 * An action that was understood and refused (an unknown name, a request already decided, a
 * rule broken): the caller's error, reported as such (exit 2 on the command line), never a
 * crash, and nothing was written.
 */
export class Refused extends Error {
  override name = 'Refused';
}
