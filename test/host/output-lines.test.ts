import { test } from 'node:test';
import assert from 'node:assert/strict';
import { PassThrough } from 'node:stream';
import { pipeLines } from '../../src/host/output-lines.js';
import { waitFor } from '../helpers/wait.js';

test("a teammate's output reaches the agent log as whole lines, in order, the last one flushed at the end", async () => {
  const stream = new PassThrough();
  const appended: string[][] = [];
  const problems: string[] = [];
  pipeLines(stream, async (lines) => void appended.push([...lines]), (reason) => problems.push(reason));
  stream.write('{"a":1}\n{"b"');
  stream.write(':2}\r\n');
  stream.end('tail without a break');
  await waitFor(() => appended.flat().length === 3 || undefined, 'the three lines');
  assert.deepEqual(appended.flat(), ['{"a":1}', '{"b":2}', 'tail without a break']);
  assert.deepEqual(problems, []);
});

test('an append that fails is reported, and the lines after it still go', async () => {
  const stream = new PassThrough();
  const appended: string[] = [];
  const problems: string[] = [];
  let first = true;
  pipeLines(stream, async (lines) => {
    if (first) {
      first = false;
      throw new Error('store away');
    }
    appended.push(...lines);
  }, (reason) => problems.push(reason));
  stream.write('lost\n');
  await waitFor(() => problems.length === 1 || undefined, 'the failure reported');
  stream.end('kept\n');
  await waitFor(() => appended.length === 1 || undefined, 'the next line');
  assert.deepEqual(appended, ['kept']);
  assert.deepEqual(problems, ['store away']);
});
