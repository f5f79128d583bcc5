/**
 * Text we do not control (what an agent wrote: messages, summaries, plans, tool inputs,
 * reasons; what a file or a human supplied) is shown on a terminal, never obeyed by it.
 *
 * A terminal acts on ESC (CSI: colours, cursor moves, clearing the screen; OSC: the window
 * title, hyperlinks, even the clipboard), on BEL, on CR and BS (overwriting what was already
 * printed), on the other C0 controls, DEL, and on C1 controls (U+0080–U+009F: U+009B alone
 * is a CSI). Bidirectional embeddings, overrides and isolates reorder what is shown. Every
 * such character becomes a visible escape: `\n`, `\r`, `\t` by their usual names, the others
 * as `\xNN` (ESC is `\x1b`) or, for the bidi controls, `\uNNNN`. Backslashes are left alone:
 * the point is that nothing acts, and Windows paths stay readable.
 *
 * Escaping is idempotent (its output has nothing left to escape), so a formatter and the
 * component that shows its result may both apply it.
 */

// eslint-disable-next-line no-control-regex -- finding control characters is this file's job
const CONTROLS = /[\u0000-\u001f\u007f-\u009f\u202a-\u202e\u2066-\u2069]/g;
// The same without newline and tab, which lay out a multi-line body.
// eslint-disable-next-line no-control-regex -- as above
const CONTROLS_BUT_LAYOUT = /[\u0000-\u0008\u000b-\u001f\u007f-\u009f\u202a-\u202e\u2066-\u2069]/g;

const NAMED: Readonly<Record<string, string>> = { '\n': '\\n', '\r': '\\r', '\t': '\\t' };

function visible(char: string): string {
  const named = NAMED[char];
  if (named !== undefined) return named;
  const code = char.charCodeAt(0);
  return code <= 0xff ? `\\x${code.toString(16).padStart(2, '0')}` : `\\u${code.toString(16).padStart(4, '0')}`;
}

/** One line: every control character escaped, newlines and tabs too. For names, table cells, error messages. */
export function inertLine(text: string): string {
  return text.replace(CONTROLS, visible);
}

/**
 * A multi-line body (a message, the lead's answer, a plan): newlines and tabs kept, CRLF read
 * as a newline, every other control character escaped.
 */
export function inertText(text: string): string {
  return text.replace(/\r\n/g, '\n').replace(CONTROLS_BUT_LAYOUT, visible);
}

/** Text flattened to one inert line and cut to `max` characters. */
export function oneLine(text: string, max: number): string {
  const flat = inertLine(text.replace(/\s+/g, ' ').trim());
  return flat.length <= max ? flat : `${flat.slice(0, max - 1)}…`;
}

// JSON.stringify escapes C0 controls, but leaves DEL, C1 and the bidi controls as they are.
const JSON_UNESCAPED = /[\u007f-\u009f\u202a-\u202e\u2066-\u2069]/g;

/**
 * One JSON line for `--json` output: the same value, with every control character written as a
 * `\uNNNN` escape so a terminal showing the line acts on none of them. Those characters only
 * ever occur inside JSON strings, where the escape means the same character.
 */
export function inertJson(value: unknown): string {
  return JSON.stringify(value).replace(JSON_UNESCAPED, (char) => `\\u${char.charCodeAt(0).toString(16).padStart(4, '0')}`);
}

/** `'text'`, escaped: for an error message that quotes a name or a value someone supplied. */
export function quoted(text: string): string {
  return `'${inertLine(text)}'`;
}
