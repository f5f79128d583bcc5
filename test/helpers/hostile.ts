import assert from 'node:assert/strict';

/**
 * What a hostile agent might write: clear the screen (CSI), retitle the window (OSC ending in
 * BEL), a one-character C1 CSI, DEL, a carriage return that would overwrite the line, and a
 * right-to-left override. The visible words around them must survive.
 */
export const HOSTILE = 'start \u001b[2J\u001b]0;pwned\u0007 csi\u009b1m del\u007f cr\r rtl\u202e end';

/** How HOSTILE reads once made inert. */
export const HOSTILE_SHOWN = 'start \\x1b[2J\\x1b]0;pwned\\x07 csi\\x9b1m del\\x7f cr\\r rtl\\u202e end';

// eslint-disable-next-line no-control-regex -- what must never reach a terminal raw
const RAW_CONTROL = /[\u0000-\u0008\u000b-\u001f\u007f-\u009f\u202a-\u202e\u2066-\u2069]/;
// eslint-disable-next-line no-control-regex -- as above, and newline and tab too
const ANY_CONTROL = /[\u0000-\u001f\u007f-\u009f\u202a-\u202e\u2066-\u2069]/g;

/** A failure message must not itself disturb the terminal the tests run in: every control as \uNNNN, by hand. */
export const show = (text: string) => text.replace(ANY_CONTROL, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`);

/** `text` has no control character a terminal would act on (newline and tab are layout). */
export function assertInert(text: string, what: string): void {
  const found = RAW_CONTROL.exec(text);
  assert.equal(found?.index, undefined, `${show(what)}: raw U+${found?.[0].charCodeAt(0).toString(16).padStart(4, '0')} at ${found?.index} in "${show(text)}"`);
}
