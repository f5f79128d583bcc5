import { after, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { runCli } from '../helpers/cli.js';
import { tempHome } from '../helpers/temp.js';
import { killAll } from '../helpers/children.js';

after(killAll);

describe('teams doctor', () => {
  test('reports the bounds on every command: /tmp, memory and processes with the mechanism, and the variables passed', async () => {
    const { home, cleanup } = tempHome('teams-doctor-');
    after(cleanup);
    writeFileSync(join(home, 'settings.json'), JSON.stringify({ sandbox: { memory_mb: 2048, processes: 100, tmp_mb: 64, env: ['DOCTOR_NAMED'] } }));
    const result = await runCli(home, ['doctor'], { DOCTOR_NAMED: 'x', GITHUB_TOKEN: 'ghp_secret' });
    assert.match(result.stdout, /^command \/tmp +64 MB/m);
    assert.match(result.stdout, /^command limits +(cgroup v[12] \(.*\): 2048 MB memory, 100 processes per command|prlimit: 2048 MB address space per process, 100 processes|NONE: )/m);
    const env = /^command environment +(.*)$/m.exec(result.stdout)?.[1] ?? '';
    assert.match(env, /\bDOCTOR_NAMED\b/);
    assert.match(env, /\bPATH\b/);
    assert.doesNotMatch(env, /GITHUB_TOKEN/);
  });

  test('a malformed sandbox section is an error naming the field', async () => {
    const { home, cleanup } = tempHome('teams-doctor-');
    after(cleanup);
    writeFileSync(join(home, 'settings.json'), JSON.stringify({ sandbox: { tmp_mb: -1 } }));
    const result = await runCli(home, ['doctor']);
    assert.notEqual(result.code, 0);
    assert.match(result.stderr, /sandbox\.tmp_mb/);
  });
});
