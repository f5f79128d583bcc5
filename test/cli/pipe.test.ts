import { after, test } from 'node:test';
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { CLI } from '../helpers/cli.js';
import { storeOf } from '../helpers/store.js';
import { tempHome } from '../helpers/temp.js';

const { home, cleanup } = tempHome();
after(cleanup);

test('a reader that closes the pipe early (teams log | head) ends the output, not in a crash', async () => {
  const store = storeOf(home);
  await store.roster.ensure();
  for (let i = 0; i < 5_000; i++) await store.audit.append({ event: 'member', name: 'lead', change: `entry ${i}` });
  const child = spawn(process.execPath, [CLI, '--home', home, 'log'], { stdio: ['ignore', 'pipe', 'pipe'] });
  let stderr = '';
  child.stderr.setEncoding('utf8').on('data', (chunk: string) => (stderr += chunk));
  // Like `head -1`: read the first chunk, then close our end.
  child.stdout.once('data', () => child.stdout.destroy());
  const code = await new Promise<number | null>((resolve) => child.once('close', (c) => resolve(c)));
  assert.equal(stderr, '');
  assert.equal(code, 0);
});
