import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { inertJson, inertLine, inertText, oneLine, quoted } from '../../src/lib/terminal-text.js';
import { assertInert, HOSTILE, HOSTILE_SHOWN } from '../helpers/hostile.js';

/** Every character a terminal may act on: C0, DEL, C1, the bidi controls. */
const CONTROLS = [
  ...Array.from({ length: 0x20 }, (_, i) => i),
  ...Array.from({ length: 0x21 }, (_, i) => 0x7f + i),
  0x202a, 0x202b, 0x202c, 0x202d, 0x202e, 0x2066, 0x2067, 0x2068, 0x2069,
].map((code) => String.fromCharCode(code));

describe('terminal text', () => {
  test('escape sequences, BEL, C1, DEL, CR and bidi controls are shown, not obeyed', () => {
    assert.equal(inertLine(HOSTILE), HOSTILE_SHOWN);
    assert.equal(inertText(HOSTILE), HOSTILE_SHOWN);
    for (const char of CONTROLS) assertInert(inertLine(char), `U+${char.charCodeAt(0).toString(16)}`);
    assert.deepEqual([inertLine('\u0000'), inertLine('\u001b'), inertLine('\u009b'), inertLine('\u2066')], ['\\x00', '\\x1b', '\\x9b', '\\u2066']);
  });

  test('a one-line field escapes newline and tab; a body keeps them, and reads CRLF as a newline', () => {
    assert.equal(inertLine('a\nb\tc'), 'a\\nb\\tc');
    assert.equal(inertText('a\nb\tc'), 'a\nb\tc');
    assert.equal(inertText('a\r\nb\rc'), 'a\nb\\rc');
  });

  test('ordinary text, non-ASCII and backslashes are left as they are; escaping twice is escaping once', () => {
    const ordinary = 'naïve café → 日本語 C:\\temp\\x1b "quoted" \u00a0 emoji 🎉';
    assert.equal(inertText(ordinary), ordinary);
    assert.equal(inertLine(ordinary), ordinary);
    assert.equal(inertLine(inertLine(HOSTILE)), inertLine(HOSTILE));
    assert.equal(inertText(inertText(`${HOSTILE}\n${HOSTILE}`)), inertText(`${HOSTILE}\n${HOSTILE}`));
  });

  test('oneLine flattens whitespace, escapes, and cuts to the length given', () => {
    assert.equal(oneLine('  a\n  b\tc  ', 100), 'a b c');
    assert.equal(oneLine('x'.repeat(20), 10), `${'x'.repeat(9)}…`);
    assert.equal(oneLine('\u001b[2J', 100), '\\x1b[2J');
    assert.ok(oneLine(HOSTILE, 12).length <= 12);
  });

  test('JSON lines: the same value when parsed, with no raw control character in the text', () => {
    const value = { text: HOSTILE, all: CONTROLS.join(''), nested: [{ plan: `1.\n2.\u009b` }] };
    const line = inertJson(value);
    assertInert(line, 'inertJson');
    assert.doesNotMatch(line, /\n/);
    assert.deepEqual(JSON.parse(line), value);
    // What plain JSON.stringify leaves raw, so this function exists.
    assert.match(JSON.stringify(value), /\u009b/);
  });

  test('quoted names an untrusted value on one line', () => {
    assert.equal(quoted('a\nb'), "'a\\nb'");
    assert.equal(quoted('x\u001b[2Jy'), "'x\\x1b[2Jy'");
  });
});
