import { after, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { appendFileSync, closeSync, mkdirSync, openSync } from 'node:fs';
import { join } from 'node:path';
import { logLineOf, type LogLine } from '../../src/store/agent-log.js';
import type { LogBatch } from '../../src/store/team-store.js';
import { teamPaths } from '../../src/team/paths.js';
import { DIST, killAll, spawnNode, type Child } from '../helpers/children.js';
import { filesOf, storeOf } from '../helpers/store.js';
import { tempHome } from '../helpers/temp.js';
import { waitFor } from '../helpers/wait.js';

after(killAll);

const WRITER = join(DIST, 'test', 'fixtures', 'log-writer.js');

const temp = tempHome('teams-agent-logs-');
after(temp.cleanup);
const store = storeOf(temp.home);
after(() => store.close());
const logs = filesOf(teamPaths(temp.home, 'default')).agentLogs;
mkdirSync(logs, { recursive: true });
let agents = 0;
/** A fresh agent's name, and a way to append bytes to its log as its process would. */
function freshLog(): { agent: string; path: string; append: (text: string) => void } {
  const agent = `agent${agents++}`;
  const path = join(logs, `${agent}.log`);
  return { agent, path, append: (text) => appendFileSync(path, text) };
}

const input = (text: string) => logLineOf({ type: 'input', text });
const texts = (lines: readonly LogLine[]) => lines.map((line) => (line.type === 'input' || line.type === 'raw' ? line.text : line.type));

describe('reading a log', () => {
  test('from the start, then from where the last read stopped', async () => {
    const { agent, append } = freshLog();
    append(input('one') + input('two'));
    const first = await store.agentLogs.read(agent);
    assert.deepEqual(texts(first.lines), ['one', 'two']);
    assert.equal(first.skipped, false);
    append(input('three'));
    const second = await store.agentLogs.read(agent, { from: first.next });
    assert.deepEqual(texts(second.lines), ['three']);
    assert.deepEqual((await store.agentLogs.read(agent, { from: second.next })).lines, []);
  });

  test('a line still being written is left for the next read', async () => {
    const { agent, append } = freshLog();
    const line = input('whole');
    append(input('before') + line.slice(0, 10));
    const first = await store.agentLogs.read(agent);
    assert.deepEqual(texts(first.lines), ['before']);
    append(line.slice(10));
    assert.deepEqual(texts((await store.agentLogs.read(agent, { from: first.next })).lines), ['whole']);
  });

  test('the tail starts at a line, and says the start was skipped', async () => {
    const { agent, append } = freshLog();
    const lines = ['a', 'b', 'c', 'd'].map(input);
    append(lines.join(''));
    const last = lines[3]!.length;
    // Exactly the last line's bytes: that line, whole.
    const exact = await store.agentLogs.read(agent, { tail: last });
    assert.deepEqual([texts(exact.lines), exact.skipped], [['d'], true]);
    // One byte more lands inside the line before: that line is left out, not cut.
    assert.deepEqual(texts((await store.agentLogs.read(agent, { tail: last + 1 })).lines), ['d']);
    assert.deepEqual(texts((await store.agentLogs.read(agent, { tail: 2 * last })).lines), ['c', 'd']);
    const all = await store.agentLogs.read(agent, { tail: 10_000 });
    assert.deepEqual([texts(all.lines), all.skipped], [['a', 'b', 'c', 'd'], false]);
  });

  test('a log that does not exist is empty; a name that is no agent is refused', async () => {
    const empty = await store.agentLogs.read('nobody');
    assert.deepEqual(empty, { lines: [], next: { position: 0 }, skipped: false });
    await assert.rejects(store.agentLogs.read('../config'));
    await assert.rejects(store.agentLogs.follow('a/b', () => undefined));
  });

  test('a torn line, ended by the next writer, is one raw line: nothing is lost silently', async () => {
    const { agent, append } = freshLog();
    // A writer killed mid-line, then the next process's first line.
    append(input('cut').slice(0, 20));
    append(input('next'));
    append(input('after'));
    const { lines } = await store.agentLogs.read(agent);
    assert.equal(lines.length, 2);
    assert.equal(lines[0]!.type, 'raw');
    assert.ok(lines[0]!.type === 'raw' && lines[0]!.text.includes('"text":"next"'), 'the torn line holds what followed it');
    assert.deepEqual(texts(lines.slice(1)), ['after']);
  });

  test('more than a batch without a line break is a placeholder, and the reader goes on', async () => {
    const { agent, append } = freshLog();
    append('x'.repeat(4 * 1024 * 1024 + 10));
    append(`\n${input('after the flood')}`);
    const seen: LogLine[] = [];
    let cursor: LogBatch['next'] | undefined;
    await waitFor(async () => {
      const batch = await store.agentLogs.read(agent, { from: cursor });
      cursor = batch.next;
      seen.push(...batch.lines);
      return seen.some((line) => line.type === 'input');
    }, 'the line after the flood');
    assert.deepEqual(texts(seen), [`(${4 * 1024 * 1024} bytes without a line break, left out)`, 'x'.repeat(10), 'after the flood']);
  });
});

describe('following a log', () => {
  const subscriptions: { close(): Promise<void> }[] = [];
  after(async () => {
    for (const subscription of subscriptions.splice(0)) await subscription.close();
  });

  test('gives where the log stands first, then each line once as it is completed', async () => {
    const { agent, append } = freshLog();
    append(input('old'));
    const batches: LogBatch[] = [];
    subscriptions.push(await store.agentLogs.follow(agent, (batch) => batches.push(batch)));
    await waitFor(() => batches.length > 0, 'the first batch');
    assert.deepEqual(texts(batches[0]!.lines), ['old']);
    const line = input('new');
    append(line.slice(0, 5));
    append(line.slice(5));
    await waitFor(() => batches.some((batch) => batch.lines.length > 0 && texts(batch.lines).includes('new')), 'the new line');
    assert.deepEqual(texts(batches.flatMap((batch) => batch.lines)), ['old', 'new']);
  });

  test('several writer processes at once: every line once, in each writer\'s order', async () => {
    const { agent, path } = freshLog();
    const seen: LogLine[] = [];
    // Before the log exists, as for a teammate not started yet.
    subscriptions.push(await store.agentLogs.follow(agent, (batch) => seen.push(...batch.lines)));
    const count = 300;
    const writers: Child[] = [];
    for (const prefix of ['w0', 'w1', 'w2']) {
      // The writer's stdout is the log, opened for appending, as the supervisor opens it.
      const log = openSync(path, 'a');
      writers.push(spawnNode(WRITER, [prefix, String(count)], { stdio: ['pipe', log, 'pipe'] }));
      closeSync(log);
    }
    await waitFor(() => writers.every((writer) => writer.stderr().includes('ready')), 'the writers to be ready');
    for (const writer of writers) writer.process.stdin?.write('go\n');
    for (const writer of writers) assert.equal((await writer.exited).code, 0, writer.stderr());
    await waitFor(() => seen.length >= 3 * count, 'every line');
    assert.equal(seen.length, 3 * count);
    assert.ok(seen.every((line) => line.type === 'input'), 'no line torn by another');
    for (const prefix of ['w0', 'w1', 'w2']) {
      const own: string[] = texts(seen).filter((text) => text.startsWith(`${prefix} `));
      assert.deepEqual(own, Array.from({ length: count }, (_, i) => `${prefix} ${i}`));
    }
  });
});
