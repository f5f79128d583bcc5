import { test } from 'node:test';
import assert from 'node:assert/strict';
import { logLineOf, type LogLine } from '../../src/store/agent-log.js';
import type { LogBatch } from '../../src/store/team-store.js';
import { waitFor } from '../helpers/wait.js';
import { succeeded, type Kit } from './conformance.js';

/** An input event's line, without its line break, as a caller hands it to append. */
const input = (text: string) => logLineOf({ type: 'input', text }).slice(0, -1);
const texts = (lines: readonly LogLine[]) => lines.map((line) => (line.type === 'input' || line.type === 'raw' ? line.text : line.type));

export function agentLogCases(kit: Kit): void {
  test('agent logs: appended batches read back in order, from the start and then from where a read stopped', async () => {
    const { descriptor, store } = await kit.team();
    const empty = await store.agentLogs.read('alice');
    assert.deepEqual([empty.lines, empty.skipped], [[], false]);
    await store.agentLogs.append('alice', [input('one'), input('two')]);
    await store.agentLogs.append('alice', ['Error: not an event']);
    // The cursor of the empty log still reads what came after it.
    assert.deepEqual(texts((await store.agentLogs.read('alice', { from: empty.next })).lines), ['one', 'two', 'Error: not an event']);
    const first = await store.agentLogs.read('alice');
    assert.deepEqual([texts(first.lines), first.skipped], [['one', 'two', 'Error: not an event'], false]);
    assert.equal(first.lines[2]?.type, 'raw');
    await store.agentLogs.append('alice', [input('three')]);
    const second = await (await kit.reopen(descriptor)).agentLogs.read('alice', { from: first.next });
    assert.deepEqual(texts(second.lines), ['three']);
    assert.deepEqual((await store.agentLogs.read('alice', { from: second.next })).lines, []);
    assert.deepEqual((await store.agentLogs.read('bob')).lines, [], "another agent's log is its own");
  });

  test('agent logs: tail counts lines: at most the last that many, and says when lines were left out', async () => {
    const { store } = await kit.team();
    await store.agentLogs.append('alice', ['a', 'b', 'c'].map(input));
    await store.agentLogs.append('alice', ['d', 'e'].map(input));
    const two = await store.agentLogs.read('alice', { tail: 2 });
    assert.deepEqual([texts(two.lines), two.skipped], [['d', 'e'], true]);
    const three = await store.agentLogs.read('alice', { tail: 3 });
    assert.deepEqual([texts(three.lines), three.skipped], [['c', 'd', 'e'], true]);
    for (const tail of [5, 100]) {
      const all = await store.agentLogs.read('alice', { tail });
      assert.deepEqual([texts(all.lines), all.skipped], [['a', 'b', 'c', 'd', 'e'], false], `tail ${tail}`);
    }
    await store.agentLogs.append('alice', [input('f')]);
    assert.deepEqual(texts((await store.agentLogs.read('alice', { from: two.next })).lines), ['f'], 'a tail read goes on like any other');
    const empty = await store.agentLogs.read('nobody', { tail: 3 });
    assert.deepEqual([empty.lines, empty.skipped], [[], false]);
  });

  test('agent logs: follow gives where the log stands first, then each appended line once, in order', async () => {
    const { descriptor, store } = await kit.team();
    await store.agentLogs.append('alice', ['a', 'b', 'c'].map(input));
    const batches: LogBatch[] = [];
    kit.keep(await store.agentLogs.follow('alice', (batch) => batches.push(batch), { tail: 1 }));
    await waitFor(() => batches.length > 0, 'the first batch');
    assert.deepEqual([texts(batches[0]!.lines), batches[0]!.skipped], [['c'], true]);
    const other = await kit.reopen(descriptor);
    await other.agentLogs.append('alice', [input('d')]);
    await other.agentLogs.append('alice', [input('e'), input('f')]);
    await waitFor(() => batches.flatMap((b) => b.lines).length >= 4, 'the appended lines');
    assert.deepEqual(texts(batches.flatMap((b) => b.lines)), ['c', 'd', 'e', 'f']);
    // A follow from a cursor begins there, and its first batch comes even when empty.
    const fromLast: LogBatch[] = [];
    kit.keep(await store.agentLogs.follow('alice', (batch) => fromLast.push(batch), { from: batches.at(-1)!.next }));
    await waitFor(() => fromLast.length > 0, 'the first batch from a cursor');
    assert.deepEqual(fromLast[0]!.lines, []);
    await other.agentLogs.append('alice', [input('g')]);
    await waitFor(() => fromLast.some((b) => b.lines.length > 0), 'the next line');
    assert.deepEqual(texts(fromLast.flatMap((b) => b.lines)), ['g']);
  });

  test('agent logs: a cursor the store did not give, a bad tail, a name that is no agent and a line with a break are refused', async () => {
    const { store } = await kit.team();
    await store.agentLogs.append('alice', [input('kept')]);
    for (const from of ['garbage', '', '1700000000000-0', 'file-log:-1']) {
      await assert.rejects(store.agentLogs.read('alice', { from }), /cursor/, `read from ${JSON.stringify(from)}`);
      await assert.rejects(store.agentLogs.follow('alice', () => undefined, { from }), /cursor/, `follow from ${JSON.stringify(from)}`);
    }
    await assert.rejects(store.agentLogs.read('alice', { tail: -1 }), /tail/);
    await assert.rejects(store.agentLogs.read('alice', { tail: 1.5 }), /tail/);
    await assert.rejects(store.agentLogs.read('../config'), /agent name/);
    await assert.rejects(store.agentLogs.follow('a/b', () => undefined), /agent name/);
    await assert.rejects(store.agentLogs.append('Not A Name', [input('x')]), /agent name/);
    await assert.rejects(store.agentLogs.append('alice', [input('whole'), 'two\nlines']), /line 2 of the batch holds a line break/);
    assert.deepEqual(texts((await store.agentLogs.read('alice')).lines), ['kept'], 'a refused batch writes nothing');
    await store.agentLogs.append('alice', []);
    assert.deepEqual(texts((await store.agentLogs.read('alice')).lines), ['kept']);
  });

  test('agent logs: processes appending at once: every line once, each batch whole, each writer in order', async () => {
    const { descriptor, store } = await kit.team();
    const writers = ['w0', 'w1', 'w2'];
    const [batches, size] = [100, 5];
    const seen: LogLine[] = [];
    kit.keep(await store.agentLogs.follow('alice', (batch) => seen.push(...batch.lines)));
    const children = writers.map((prefix) => kit.child(descriptor, 'log', 'alice', prefix, String(batches), String(size)));
    await kit.go(children);
    for (const child of children) await succeeded(child, 'a log writer');
    const total = writers.length * batches * size;
    await waitFor(() => seen.length >= total, `all ${total} lines (have ${seen.length})`, 60_000);
    const lines = texts(seen);
    assert.equal(lines.length, total);
    assert.ok(seen.every((line) => line.type === 'input'), 'no line torn by another');
    for (const prefix of writers) {
      const own = lines.filter((text) => text.startsWith(`${prefix} `));
      assert.deepEqual(own, Array.from({ length: batches * size }, (_, i) => `${prefix} ${Math.floor(i / size)}.${i % size}`));
    }
    // A batch is never split by another writer's lines: each one's lines stand together.
    for (let at = 0; at < lines.length; at += size) {
      const batch = lines.slice(at, at + size);
      const [prefix, number] = (batch[0] ?? '').split(/[ .]/);
      assert.deepEqual(batch, Array.from({ length: size }, (_, i) => `${prefix} ${number}.${i}`), `lines ${at}..${at + size - 1}`);
    }
    assert.deepEqual(texts((await store.agentLogs.read('alice')).lines), lines, 'a read agrees with the follow');
  });
}

