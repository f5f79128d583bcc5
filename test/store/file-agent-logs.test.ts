import { after, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { appendFileSync, closeSync, mkdirSync, openSync, readFileSync } from 'node:fs';
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
  test('a line still being written is left for the next read', async () => {
    const { agent, append } = freshLog();
    const line = input('whole');
    append(input('before') + line.slice(0, 10));
    const first = await store.agentLogs.read(agent);
    assert.deepEqual(texts(first.lines), ['before']);
    append(line.slice(10));
    assert.deepEqual(texts((await store.agentLogs.read(agent, { from: first.next })).lines), ['whole']);
  });

  test('the tail counts complete lines: a line still being written is neither counted nor read', async () => {
    const { agent, append } = freshLog();
    append(['a', 'b', 'c'].map(input).join('') + input('d').slice(0, 10));
    const tail = await store.agentLogs.read(agent, { tail: 2 });
    assert.deepEqual([texts(tail.lines), tail.skipped], [['b', 'c'], true]);
    append(input('d').slice(10));
    assert.deepEqual(texts((await store.agentLogs.read(agent, { from: tail.next })).lines), ['d']);
  });

  test('lines appended through the store and lines the teammate printed share one file, read as one log', async () => {
    const { agent, path, append } = freshLog();
    append(input('printed'));
    await store.agentLogs.append(agent, [input('appended').slice(0, -1)]);
    append(input('printed again'));
    assert.deepEqual(texts((await store.agentLogs.read(agent)).lines), ['printed', 'appended', 'printed again']);
    assert.match((await store.agentLogs.read(agent)).next, /^file-log:\d+$/);
    assert.equal(readFileSync(path, 'utf8').split('\n').length, 4);
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
