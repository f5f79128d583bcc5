import { after, test } from 'node:test';
import assert from 'node:assert/strict';
import { appendFileSync, mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { TaskJournal } from '../../src/store/file/task-journal.js';
import { tempHome } from '../helpers/temp.js';

// What the file store adds to the conformance suite: its task journal's file, torn and corrupt.

const temp = tempHome('teams-file-tasks-');
after(temp.cleanup);

test('torn and corrupt lines in tasks.jsonl are set aside and reported; the board goes on', () => {
  const dir = join(temp.home, 'torn');
  mkdirSync(dir);
  const path = join(dir, 'tasks.jsonl');
  const writer = new TaskJournal(path);
  writer.create({ subject: 'first' }, 'lead');
  appendFileSync(path, '{"event":"created","event_id":"x","task":{"id":"2"\n');
  appendFileSync(path, '{"event":"changed","event_id":"y","task_id":"1","by":"bob","at":"soon","change":{"op":"claim"}}\n');
  // A writer killed mid-line: the next append closes the torn line first.
  appendFileSync(path, '{"event":"changed","event_');
  writer.create({ subject: 'second' }, 'lead');
  const reader = new TaskJournal(path);
  assert.deepEqual(reader.list().map((t) => [t.id, t.subject, t.status]), [['1', 'first', 'pending'], ['2', 'second', 'pending']]);
  const problems = reader.problems();
  assert.deepEqual(problems.map((p) => p.ref), [3, 4, 5].map((line) => `${path} line ${line}`), 'each by its line in the file (line 1 is the first append\'s leading newline)');
  assert.match(problems[0]?.reason ?? '', /not valid JSON/);
  assert.match(problems[1]?.reason ?? '', /at/, 'a change with no valid time is not a change');
  assert.match(problems[2]?.reason ?? '', /not valid JSON/);
  const claimed = reader.claim('alice');
  assert.ok(claimed.ok && claimed.task.id === '1');
  // Lines found on a later read are numbered from the file's start too.
  appendFileSync(path, 'not json\n');
  assert.deepEqual(reader.problems().slice(3).map((p) => [p.ref, p.reason]), [[`${path} line 9`, 'set aside: not valid JSON (torn or corrupt line)']]);
});
