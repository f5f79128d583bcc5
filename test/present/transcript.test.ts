import { test } from 'node:test';
import assert from 'node:assert/strict';
import { parseLogLine, type LogLine } from '../../src/store/agent-log.js';
import { EMPTY_FOLD, foldLog, type TranscriptEntry } from '../../src/present/transcript.js';
import { formatTranscriptEntry, formatTranscriptLive } from '../../src/present/transcript-format.js';

const at = '2026-01-01T00:00:00.000Z';
const usage = { input_tokens: 10, output_tokens: 5 };
const turnStart = (call: number): LogLine => ({ at, type: 'turn_start', call });
const delta = (text: string): LogLine => ({ at, type: 'text_delta', text });
const turnEnd = (text: string): LogLine => ({ at, type: 'turn_end', stopReason: 'end_turn', usage, text, model: 'm' });
const call = (id: string, command: string): LogLine => ({ at, type: 'tool_call', id, name: 'bash', input: { command } });
const result = (id: string, content: string, isError = false): LogLine => ({ at, type: 'tool_result', id, name: 'bash', content, isError });
const idle = (reason: string): LogLine => ({ at, type: 'idle', reason, lastText: '' });

const entriesOf = (lines: readonly LogLine[]) => foldLog(EMPTY_FOLD, lines).entries;

test('streamed text becomes one block, ended by the end of its turn', () => {
  const { fold, entries } = foldLog(EMPTY_FOLD, [turnStart(1), delta('Hel'), delta('lo, '), delta('world')]);
  // Still streaming: nothing final yet, the text is live.
  assert.deepEqual(entries, []);
  assert.equal(fold.text, 'Hello, world');
  const ended = foldLog(fold, [turnEnd('Hello, world'), idle('end_turn')]);
  assert.deepEqual(ended.entries, [{ kind: 'text', text: 'Hello, world' }]);
  assert.equal(ended.fold.text, '');
});

test('text then a tool call: the block, then the call with its result as one entry', () => {
  const entries = entriesOf([turnStart(1), delta('Let me look.'), call('t1', 'ls'), result('t1', 'a.ts\nb.ts'), turnEnd('Let me look.')]);
  assert.deepEqual(entries, [
    { kind: 'text', text: 'Let me look.' },
    { kind: 'tool', name: 'bash', input: { command: 'ls' }, result: 'a.ts\nb.ts', isError: false },
  ]);
});

test('a call still running is live, not an entry', () => {
  const { fold, entries } = foldLog(EMPTY_FOLD, [turnStart(1), call('t1', 'sleep 5')]);
  assert.deepEqual(entries, []);
  assert.deepEqual(fold.calls, [{ id: 't1', name: 'bash', input: { command: 'sleep 5' } }]);
});

test('a result whose call was not seen (a read that began mid-log) is still an entry', () => {
  assert.deepEqual(entriesOf([result('t9', 'done', true)]), [{ kind: 'tool', name: 'bash', input: {}, result: 'done', isError: true }]);
});

test('a turn that streamed nothing gives its text whole at its end', () => {
  assert.deepEqual(entriesOf([turnStart(1), turnEnd('All at once.'), idle('end_turn')]), [{ kind: 'text', text: 'All at once.' }]);
  // Nor is a streamed turn's text given twice.
  assert.deepEqual(entriesOf([turnStart(1), delta('Once.'), turnEnd('Once.')]), [{ kind: 'text', text: 'Once.' }]);
});

test('an interrupted turn ends its open call and says it stopped', () => {
  const entries = entriesOf([turnStart(1), call('t1', 'make'), idle('interrupted')]);
  assert.deepEqual(entries, [
    { kind: 'tool', name: 'bash', input: { command: 'make' }, result: 'no result (the turn ended first)', isError: true },
    { kind: 'stopped', reason: 'interrupted' },
  ]);
});

test('notices, statuses, compactions, errors, problems and raw lines are entries of their own', () => {
  const lines: LogLine[] = [
    { at, type: 'input', text: 'task #1: fix it' },
    { at, type: 'status', status: 'working' },
    { at, type: 'compacted', before: 900, after: 100, reason: 'threshold', usage, model: 'm' },
    { at, type: 'error', message: 'the model failed' },
    { at, type: 'problem', what: 'the roster was not updated', reason: 'EACCES' },
    parseLogLine('Error: boom'),
    parseLogLine('{"type":"text_delta"}'),
  ];
  assert.deepEqual(entriesOf(lines), [
    { kind: 'input', text: 'task #1: fix it' },
    { kind: 'status', status: 'working' },
    { kind: 'compacted', before: 900, after: 100, reason: 'threshold' },
    { kind: 'error', text: 'the model failed' },
    { kind: 'error', text: 'the roster was not updated: EACCES' },
    { kind: 'raw', text: 'Error: boom' },
    // JSON that is not an event (a field missing) is raw text too.
    { kind: 'raw', text: '{"type":"text_delta"}' },
  ]);
});

test('folded in two batches split anywhere, a log gives the same entries as in one', () => {
  const log: LogLine[] = [
    { at, type: 'input', text: 'hi' },
    { at, type: 'status', status: 'working' },
    turnStart(1),
    delta('First, '),
    delta('a look.'),
    call('a', 'ls'),
    call('b', 'pwd'),
    result('b', '/w'),
    result('a', 'x'),
    turnEnd('First, a look.'),
    turnStart(2),
    turnEnd('Quiet answer.'),
    turnStart(3),
    delta('Then '),
    call('c', 'make'),
    idle('interrupted'),
    parseLogLine('stray'),
    { at, type: 'status', status: 'idle' },
  ];
  const whole = foldLog(EMPTY_FOLD, log);
  assert.equal(whole.entries.length, 11);
  for (let split = 0; split <= log.length; split++) {
    const first = foldLog(EMPTY_FOLD, log.slice(0, split));
    const second = foldLog(first.fold, log.slice(split));
    assert.deepEqual([...first.entries, ...second.entries], whole.entries, `split at ${split}`);
    assert.deepEqual(second.fold, whole.fold, `split at ${split}`);
  }
});

test('each entry reads as one inert line, but for the text blocks, which keep theirs', () => {
  const format = (entry: TranscriptEntry) => formatTranscriptEntry(entry, 'alice');
  assert.equal(format({ kind: 'text', text: 'two\nlines \x1b[31mred' }), 'two\nlines \\x1b[31mred');
  assert.equal(
    format({ kind: 'tool', name: 'bash', input: { command: 'ls' }, result: '\na.ts\nb.ts\nc.ts', isError: false }),
    '⚙ bash {"command":"ls"} → a.ts (+2 lines)',
  );
  assert.equal(format({ kind: 'tool', name: 'bash', input: {}, result: 'denied\x07', isError: true }), '⚙ bash {} → ✗ denied\\x07');
  assert.equal(format({ kind: 'tool', name: 'bash', input: {}, result: '', isError: false }), '⚙ bash {} → (no output)');
  assert.equal(format({ kind: 'status', status: 'awaiting_approval' }), '· alice is awaiting_approval');
  assert.equal(format({ kind: 'input', text: 'from lead:\nplease\rfix' }), '» from lead: please fix');
  assert.equal(format({ kind: 'stopped', reason: 'interrupted' }), '■ turn stopped: interrupted');
  assert.equal(format({ kind: 'compacted', before: 9000, after: 1000, reason: 'manual' }), '⇣ alice compacted its context: 9,000 → 1,000 tokens (asked by /compact)');
  assert.equal(format({ kind: 'error', text: 'a\nb' }), '✗ a\\nb');
  assert.equal(format({ kind: 'raw', text: '\x1b]0;title\x07' }), '│ \\x1b]0;title\\x07');
  const long = format({ kind: 'tool', name: 'write_file', input: { content: 'x'.repeat(1000) }, result: 'ok', isError: false });
  assert.ok(long.length < 200 && !long.includes('\n'), long);
  assert.deepEqual(formatTranscriptLive({ text: 'half a tho', calls: [{ id: 'x', name: 'bash', input: { command: 'make' } }] }), [
    'half a tho …',
    '⚙ bash {"command":"make"} … running',
  ]);
});
