import { after, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { appendFileSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { runCli } from '../helpers/cli.js';
import { tempHome } from '../helpers/temp.js';
import { killAll } from '../helpers/children.js';

after(killAll);

describe('teams tasks / task add|assign|cancel', () => {
  const { home, cleanup } = tempHome();
  after(cleanup);
  const journal = () => readFileSync(join(home, 'default', 'tasks.jsonl'), 'utf8');

  test('the board of a team that does not exist is a usage error', async () => {
    const result = await runCli(home, ['tasks']);
    assert.equal(result.code, 2);
    assert.match(result.stderr, /no team 'default'/);
  });

  test('add, list, assign and cancel; the JSON is the tasks whole', async () => {
    assert.equal((await runCli(home, ['member', 'add', 'alice', '--role', 'coder'])).code, 0);
    assert.equal((await runCli(home, ['tasks'])).stdout, 'the task board is empty\n');
    const first = await runCli(home, ['task', 'add', 'design the schema', '--description', 'tables and keys']);
    assert.equal(first.code, 0, first.stderr);
    assert.equal(first.stdout, 'added task 1\n#1 [pending]: design the schema\n');
    const second = await runCli(home, ['task', 'add', 'write the migration', '--blocked-by', '1', '--assign', 'alice']);
    assert.equal(second.stdout, 'added task 2\n#2 [pending] @alice blocked by 1: write the migration\n', second.stderr);
    const listed = await runCli(home, ['tasks']);
    assert.equal(listed.stdout, '#1 [pending]: design the schema\n  tables and keys\n#2 [pending] @alice blocked by 1: write the migration\n');
    const assigned = await runCli(home, ['task', 'assign', '1', 'alice']);
    assert.equal(assigned.stdout, 'assigned task 1 to alice\n#1 [pending] @alice: design the schema\n', assigned.stderr);
    const cancelled = await runCli(home, ['task', 'cancel', '2']);
    assert.equal(cancelled.code, 0, cancelled.stderr);
    const json = JSON.parse((await runCli(home, ['tasks', '--json', '--status', 'cancelled'])).stdout) as { id: string; status: string; created_by: string; notes: { text: string }[] }[];
    assert.deepEqual(json.map((t) => [t.id, t.status, t.created_by, t.notes[0]?.text]), [['2', 'cancelled', 'human', 'cancelled from the command line']]);
  });

  test('usage and validation errors exit 2 and write nothing', async () => {
    const before = journal();
    const cases: [string[], RegExp][] = [
      [['tasks', '--status', 'done'], /--status 'done' is not a task status \(pending, in_progress, completed, failed, cancelled\)/],
      [['task', 'add', 'x', '--blocked-by', '1,zz'], /'zz' is not a task id/],
      [['task', 'add', 'x', '--blocked-by', '9'], /task 3 cannot be blocked by unknown task 9/],
      [['task', 'add', '  '], /the subject is empty/],
      [['task', 'add', 'Deploy\n#2 [completed] @alice: Security review'], /the subject is one line/],
      [['task', 'add', 'x', '--assign', 'bob'], /unknown agent 'bob'/],
      [['task', 'add', 'x', '--assign', 'lead'], /assigned to teammates, not to the lead/],
      [['task', 'assign', '7', 'alice'], /unknown task 7/],
      [['task', 'assign', 'seven', 'alice'], /'seven' is not a task id/],
      [['task', 'cancel', '2'], /task 2 is already cancelled/],
      [['task', 'assign'], /missing required argument/],
    ];
    for (const [args, error] of cases) {
      const result = await runCli(home, args);
      assert.equal(result.code, 2, `${args.join(' ')}: ${result.stderr}`);
      assert.match(result.stderr, error, args.join(' '));
      assert.equal(result.stdout, '', args.join(' '));
    }
    assert.equal(journal(), before, 'nothing was written');
  });

  test('a corrupt line of the journal is reported on stderr, by file and line and why; the board is still shown, exit 0', async () => {
    const path = join(home, 'default', 'tasks.jsonl');
    appendFileSync(path, 'garbage not json\n');
    const line = journal().split('\n').length - 1;
    const listed = await runCli(home, ['tasks']);
    assert.equal(listed.code, 0, listed.stderr);
    assert.match(listed.stdout, /^#1 \[pending\] @alice: design the schema\n/);
    assert.equal(listed.stderr, `teams: task board ${path} line ${line}: set aside: not valid JSON (torn or corrupt line)\n`);
    const json = await runCli(home, ['tasks', '--json']);
    assert.equal((JSON.parse(json.stdout) as unknown[]).length, 2, 'the JSON on stdout stays whole');
    assert.match(json.stderr, /task board .* line \d+: set aside: not valid JSON/);
  });
});
