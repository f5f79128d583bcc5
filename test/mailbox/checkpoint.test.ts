import { test, after } from 'node:test';
import assert from 'node:assert/strict';
import { appendFileSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { CheckpointWriter, readCheckpoint, type Positions } from '../../src/store/file/mailbox/checkpoint.js';
import { tempHome } from '../helpers/temp.js';

const { home, cleanup } = tempHome('teams-checkpoint-');
after(cleanup);

const positions = (offset: number): Positions => new Map([['1-2-0123456789.0.log', { ino: 42, offset }]]);

test('the checkpoint is the last complete valid line; a torn or corrupt last line leaves the one before in force', () => {
  const path = join(home, 'torn.jsonl');
  assert.deepEqual(readCheckpoint(path), new Map(), 'none yet: every log from its start');
  const writer = new CheckpointWriter(path, false);
  assert.deepEqual(writer.open(), new Map());
  writer.write(positions(10));
  writer.write(positions(20));
  appendFileSync(path, '{"logs":{"1-2-0123456789.0.log":[42,');
  assert.deepEqual(readCheckpoint(path), positions(20));
  appendFileSync(path, '30]}}\n{"logs": "not a map"}\n');
  assert.deepEqual(readCheckpoint(path), positions(30), 'the torn line completed is valid; the corrupt one after it is skipped');
  // The consumer's restart cuts a torn tail before it appends again.
  appendFileSync(path, '{"lo');
  assert.deepEqual(new CheckpointWriter(path, false).open(), positions(30));
  assert.ok(readFileSync(path, 'utf8').endsWith('}\n'));
});

test('the checkpoint stays small: past its bound it is rewritten with its last line alone', () => {
  const path = join(home, 'rotating.jsonl');
  const writer = new CheckpointWriter(path, false);
  writer.open();
  for (let offset = 0; offset < 5_000; offset++) writer.write(positions(offset));
  assert.ok(statSync(path).size <= 64 * 1024, `${statSync(path).size} bytes`);
  assert.deepEqual(readCheckpoint(path), positions(4_999));
});
