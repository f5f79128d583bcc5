import type { Key } from 'ink';

/** One key of a chunk, as useInput would have given it had it arrived alone. */
export type SplitKey = { input: string; key: Key };

// Ink hands useInput a run of plain bytes as one input: "\x7f\x7f\x7f" (five Backspaces sent
// together, fast typing, a script) arrives with no key flag set and would be typed as text or
// dropped. DEL (\x7f, what a terminal sends for Backspace) and BS (\b) are each one key; a Tab is
// one key, never typed into the line; a line's final Enter comes after its text. An Enter inside
// a chunk (a pasted paragraph) is left to the line editor: it is not several messages.
// eslint-disable-next-line no-control-regex -- DEL and BS are exactly the control bytes meant here
const KEY_PART = /(\x7f|\x08|\t|(?:\r\n?|\n)$)/;

/** Split a chunk of input into its keys; a single key (or a modified one) comes back as it is. */
export function splitKeyChunk(input: string, key: Key): SplitKey[] {
  if (key.ctrl || key.meta || input.length < 2 || !KEY_PART.test(input)) return [{ input, key }];
  const keys: SplitKey[] = [];
  for (const part of input.split(KEY_PART)) {
    if (part === '') continue;
    if (part === '\x7f' || part === '\b') keys.push({ input: '', key: { ...key, backspace: part === '\b', delete: part === '\x7f' } });
    else if (part === '\t') keys.push({ input: '', key: { ...key, tab: true } });
    else if (/^(\r\n?|\n)$/.test(part)) keys.push({ input: '', key: { ...key, return: true } });
    else keys.push({ input: part, key });
  }
  return keys;
}
