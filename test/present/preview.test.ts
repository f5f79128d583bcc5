import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { MAX_PREVIEW_LINES, previewedPath, previewToolCall, type PreviewLine } from '../../src/present/preview.js';

const texts = (lines: PreviewLine[]) => lines.map((l) => `${l.kind} ${l.text}`);
// eslint-disable-next-line no-control-regex -- the point is that none is left
const CONTROL = /[\u0000-\u001f\u007f-\u009f\u202a-\u202e\u2066-\u2069]/;

describe('permission previews', () => {
  test('write_file of a new file: its lines, numbered', () => {
    const lines = previewToolCall({ tool: 'write_file', input: { path: 'notes.md', content: 'one\ntwo\n' }, reason: 'write notes.md (2 lines)' }, { state: 'absent' });
    assert.deepEqual(texts(lines), [
      'header write_file notes.md: a new file of 2 lines',
      'note asks because: write notes.md (2 lines)',
      'added 1  one',
      'added 2  two',
    ]);
  });

  test('write_file over an existing file: a unified diff against it', () => {
    const current = 'a\nb\nc\nd\ne\nf\ng\nh\n';
    const lines = previewToolCall({ tool: 'write_file', input: { path: 'x.txt', content: 'a\nb\nc\nd\nE\nf\ng\nh\n' } }, { state: 'text', text: current });
    assert.deepEqual(texts(lines), [
      'header write_file x.txt: replaces 8 lines with 8 lines',
      'header @@ -2,7 +2,7 @@',
      'context  b', 'context  c', 'context  d', 'removed -e', 'added +E', 'context  f', 'context  g', 'context  h',
    ]);
  });

  test('edit_file: the edit applied to the whole file, diffed with its context', () => {
    const current = 'function f() {\n  return 1;\n}\n';
    const lines = previewToolCall({ tool: 'edit_file', input: { path: 'f.ts', old_text: 'return 1;', new_text: 'return 2;\n  // two' } }, { state: 'text', text: current });
    assert.deepEqual(texts(lines), [
      'header edit_file f.ts',
      'header @@ -1,3 +1,4 @@',
      'context  function f() {', 'removed -  return 1;', 'added +  return 2;', 'added +  // two', 'context  }',
    ]);
  });

  test('edit_file that would fail says why and shows the strings', () => {
    const missing = previewToolCall({ tool: 'edit_file', input: { path: 'f.ts', old_text: 'nope', new_text: 'yes' } }, { state: 'text', text: 'other\n' });
    assert.deepEqual(texts(missing), ['header edit_file f.ts', 'note old_text is not in the file, so the edit will fail', 'note old_text:', 'removed -nope', 'note new_text:', 'added +yes']);
    const twice = previewToolCall({ tool: 'edit_file', input: { path: 'f.ts', old_text: 'x', new_text: 'y' } }, { state: 'text', text: 'x\nx\n' });
    assert.match(twice[1]?.text ?? '', /occurs 2 times/);
    const unreadable = previewToolCall({ tool: 'edit_file', input: { path: '../f.ts', old_text: 'x', new_text: 'y' } }, { state: 'unreadable', error: 'outside the working directory' });
    assert.deepEqual(unreadable[1], { kind: 'note', text: 'the file cannot be read (outside the working directory)' });
  });

  test('bash: the command and the reason it asks', () => {
    const lines = previewToolCall({ tool: 'bash', input: { command: 'rm -rf build\necho done' }, reason: 'recursive delete' });
    assert.deepEqual(texts(lines), ['header bash', 'note asks because: recursive delete', 'context $ rm -rf build', 'context > echo done']);
  });

  test('other tools: key: value lines, a multi-line string indented, not JSON', () => {
    const lines = previewToolCall({ tool: 'send_message', input: { to: 'bob', text: 'hi\nthere', urgent: true } });
    assert.deepEqual(texts(lines), ['header send_message', 'context to: bob', 'context text:', 'context     hi', 'context     there', 'context urgent: true']);
    // Input a write_file schema does not fit falls back to the same.
    assert.deepEqual(texts(previewToolCall({ tool: 'write_file', input: { path: 'a' } })), ['header write_file', 'context path: a']);
  });

  test('control characters the model chose are escaped, on every kind of line', () => {
    const evil = 'ok\u001b]0;pwned\u0007\u009b2J\u202e\r';
    const all = [
      ...previewToolCall({ tool: 'write_file', input: { path: `p${evil}`, content: `${evil}\n` }, reason: evil }, { state: 'absent' }),
      ...previewToolCall({ tool: 'write_file', input: { path: 'p', content: `${evil}\n` } }, { state: 'text', text: 'old\n' }),
      ...previewToolCall({ tool: 'edit_file', input: { path: 'p', old_text: 'old', new_text: evil } }, { state: 'text', text: 'old\n' }),
      ...previewToolCall({ tool: 'bash', input: { command: evil } }),
      ...previewToolCall({ tool: 'other', input: { [evil]: evil } }),
    ];
    for (const l of all) assert.doesNotMatch(l.text, CONTROL, JSON.stringify(l));
    assert.ok(all.some((l) => l.text.includes('ok\\x1b]0;pwned\\x07\\x9b2J\\u202e\\r')));
  });

  test('a huge file is capped, with a marker of what was cut, the reason kept', () => {
    const content = Array.from({ length: 100_000 }, (_, i) => `row ${i}`).join('\n');
    const lines = previewToolCall({ tool: 'write_file', input: { path: 'big.txt', content }, reason: 'write big.txt' }, { state: 'absent' });
    assert.equal(lines.length, MAX_PREVIEW_LINES);
    assert.equal(lines[1]?.text, 'asks because: write big.txt');
    assert.deepEqual(lines.at(-1), { kind: 'note', text: `… ${100_000 + 2 - (MAX_PREVIEW_LINES - 1)} more preview lines not shown` });
    const replaced = previewToolCall({ tool: 'write_file', input: { path: 'big.txt', content } }, { state: 'text', text: content.replace(/row/g, 'old') });
    assert.equal(replaced.length, MAX_PREVIEW_LINES);
  });

  test('previewedPath names the file of a write or an edit only', () => {
    assert.equal(previewedPath('write_file', { path: 'a.txt', content: '' }), 'a.txt');
    assert.equal(previewedPath('edit_file', { path: 'b.txt' }), 'b.txt');
    assert.equal(previewedPath('bash', { path: 'c.txt' }), undefined);
    assert.equal(previewedPath('write_file', { path: 3 }), undefined);
  });
});
