import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { Key } from 'ink';
import { splitKeyChunk } from '../../src/ui/key-chunk.js';
import { key } from './fixtures.js';

const plain: Key = key();

const names = (input: string, pressed: Key = plain): string[] =>
  splitKeyChunk(input, pressed).map((k) => (k.key.delete ? 'DEL' : k.key.backspace ? 'BS' : k.key.tab ? 'TAB' : k.key.return ? 'RET' : JSON.stringify(k.input)));

test('five Backspaces in one chunk are five keys', () => {
  assert.deepEqual(names('\x7f\x7f\x7f\x7f\x7f'), ['DEL', 'DEL', 'DEL', 'DEL', 'DEL']);
  assert.deepEqual(names('\b\b'), ['BS', 'BS']);
});

test('text then Backspaces then text keep their order', () => {
  assert.deepEqual(names('abc\x7f\x7fd'), ['"abc"', 'DEL', 'DEL', '"d"']);
});

test('Tabs and a final Enter are keys; an Enter inside a paste is text', () => {
  assert.deepEqual(names('/he\t'), ['"/he"', 'TAB']);
  assert.deepEqual(names('hello\r'), ['"hello"', 'RET']);
  assert.deepEqual(names('one\ntwo'), ['"one\\ntwo"']);
});

test('a single key or a modified one comes back as it is', () => {
  assert.deepEqual(names('x'), ['"x"']);
  assert.deepEqual(names('ab'), ['"ab"']);
  assert.equal(splitKeyChunk('c', { ...plain, ctrl: true })[0]?.key.ctrl, true);
});
