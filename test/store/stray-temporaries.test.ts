import { after, test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdirSync, readdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { removeStrayTemporaries } from '../../src/store/file/stray-temporaries.js';
import { killAll, spawnNode } from '../helpers/children.js';
import { tempHome } from '../helpers/temp.js';

const temp = tempHome('teams-stray-');
after(async () => {
  await killAll();
  temp.cleanup();
});

test('a dead writer\'s temporaries are removed; a live writer\'s and every other file are kept', async () => {
  const child = spawnNode('-e', ['process.exit(0)']);
  await child.exited;
  const dead = child.pid;
  const dir = join(temp.home, 'team');
  mkdirSync(dir);
  const names = [
    `.config.json.${dead}.0.tmp`,
    `config.json.lock.${dead}.3.tmp`,
    `.config.json.${process.pid}.1.tmp`,
    'config.json',
    'requests.jsonl',
    'notes.0.1.txt',
  ];
  for (const name of names) writeFileSync(join(dir, name), '{}');
  assert.deepEqual(removeStrayTemporaries(dir).sort(), [`.config.json.${dead}.0.tmp`, `config.json.lock.${dead}.3.tmp`]);
  assert.deepEqual(readdirSync(dir).sort(), [`.config.json.${process.pid}.1.tmp`, 'config.json', 'notes.0.1.txt', 'requests.jsonl'].sort());
});
