import type { LineEdit, LineState } from './types.js';

export const EMPTY_LINE: LineState = { text: '', cursor: 0 };

/** Control characters typed or pasted into a line: newlines become spaces, the rest goes. */
function printable(text: string): string {
  // eslint-disable-next-line no-control-regex
  return text.replace(/[\r\n\t]+/g, ' ').replace(/[\u0000-\u001f\u007f]/g, '');
}

export function editLine(line: LineState, edit: LineEdit): LineState {
  const { text, cursor } = line;
  switch (edit.op) {
    case 'insert': {
      const typed = printable(edit.text);
      return { text: text.slice(0, cursor) + typed + text.slice(cursor), cursor: cursor + typed.length };
    }
    case 'backspace':
      if (cursor === 0) return line;
      return { text: text.slice(0, cursor - 1) + text.slice(cursor), cursor: cursor - 1 };
    case 'left':
      return { text, cursor: Math.max(0, cursor - 1) };
    case 'right':
      return { text, cursor: Math.min(text.length, cursor + 1) };
    case 'home':
      return { text, cursor: 0 };
    case 'end':
      return { text, cursor: text.length };
    case 'kill':
      return EMPTY_LINE;
  }
}

export function lineOf(text: string): LineState {
  return { text, cursor: text.length };
}

function commonPrefix(words: readonly string[]): string {
  let prefix = words[0] ?? '';
  for (const word of words) while (!word.startsWith(prefix)) prefix = prefix.slice(0, -1);
  return prefix;
}

export type Completion = { line: LineState; candidates: string[] };

/** What Tab completes from: command names, the first words some commands take, member names. */
export type Vocabulary = { commands: readonly string[]; actions: Partial<Record<string, readonly string[]>>; members: readonly string[] };

/**
 * Tab on the input line: the word before the cursor, completed from the slash commands (first
 * word, starting with `/`), a command's actions (the word after a command that takes them), or
 * the member names (any other word). One candidate completes it with a space after; several
 * extend it to their common prefix and are listed.
 */
export function complete(line: LineState, vocabulary: Vocabulary): Completion {
  const before = line.text.slice(0, line.cursor);
  const start = before.search(/\S+$/);
  if (start < 0) return { line, candidates: [] };
  const word = before.slice(start);
  const isCommand = start === 0 && word.startsWith('/');
  const earlier = before.slice(0, start).trim().split(/\s+/);
  const actions = earlier.length === 1 && earlier[0]?.startsWith('/') ? vocabulary.actions[earlier[0].slice(1)] : undefined;
  const pool = isCommand ? vocabulary.commands.map((c) => `/${c}`) : (actions ?? vocabulary.members);
  const matches = pool.filter((c) => c.startsWith(word));
  // A word that is whole and also begins another (/task, /tasks) lists both rather than growing into the longer.
  const candidates = matches.length > 1 ? matches : matches.filter((c) => c !== word);
  if (candidates.length === 0) return { line, candidates };
  const completed = candidates.length === 1 ? `${candidates[0]} ` : commonPrefix(candidates);
  const after = line.text.slice(line.cursor);
  return {
    line: { text: before.slice(0, start) + completed + after, cursor: start + completed.length },
    candidates: candidates.length === 1 ? [] : candidates,
  };
}
