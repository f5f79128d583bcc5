import { after, test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { runCli } from '../helpers/cli.js';
import { tempHome } from '../helpers/temp.js';
import { killAll } from '../helpers/children.js';

after(killAll);

function fresh(): string {
  const { home, cleanup } = tempHome('teams-agents-');
  after(cleanup);
  return home;
}

test('teams agents lists the definitions, with --json; none is said plainly', async () => {
  const home = fresh();
  const empty = await runCli(home, ['agents']);
  assert.equal(empty.code, 0, empty.stderr);
  assert.match(empty.stdout, /^no agent definitions in .*agents \(write <name>\.md there/);
  const dir = join(home, 'agents');
  mkdirSync(dir, { recursive: true });
  writeFileSync(join(dir, 'reviewer.md'), '---\nname: reviewer\ndescription: Reviews changes\ntools: Read, Bash\nmodel: claude-haiku-4-5\npermission_mode: plan\n---\nYou review code.\n');
  writeFileSync(join(dir, 'writer.md'), '---\nname: writer\ndescription: Writes docs\nisolation: worktree\n---\nYou write.\n');
  const text = await runCli(home, ['agents']);
  assert.equal(text.code, 0, text.stderr);
  assert.equal(
    text.stdout,
    `reviewer  Reviews changes\n  tools: read_file, bash · model: claude-haiku-4-5 · mode: plan\n  ${join(dir, 'reviewer.md')}\n` +
      `writer  Writes docs\n  tools: all · model: the lead's · mode: the lead's · isolation: worktree\n  ${join(dir, 'writer.md')}\n`,
  );
  const json = await runCli(home, ['agents', '--json']);
  assert.equal(json.code, 0, json.stderr);
  assert.deepEqual(JSON.parse(json.stdout), {
    dir,
    agents: [
      { name: 'reviewer', description: 'Reviews changes', tools: ['read_file', 'bash'], model: 'claude-haiku-4-5', permission_mode: 'plan', isolation: 'none', file: join(dir, 'reviewer.md') },
      { name: 'writer', description: 'Writes docs', tools: null, model: null, permission_mode: null, isolation: 'worktree', file: join(dir, 'writer.md') },
    ],
    problems: [],
  });
});

test('a broken definition is named with its file and field, the others still listed, and the command exits 1', async () => {
  const home = fresh();
  const dir = join(home, 'agents');
  mkdirSync(dir, { recursive: true });
  writeFileSync(join(dir, 'reviewer.md'), '---\nname: reviewer\ndescription: Reviews changes\n---\nYou review code.\n');
  writeFileSync(join(dir, 'bad.md'), '---\nname: bad\ndescription: Bad\ntools: Read, Teleport\n---\nBody\n');
  const result = await runCli(home, ['agents', '--json']);
  assert.equal(result.code, 1);
  const listed = JSON.parse(result.stdout) as { agents: { name: string }[]; problems: string[] };
  assert.deepEqual(listed.agents.map((a) => a.name), ['reviewer']);
  assert.equal(listed.problems.length, 1);
  assert.match(listed.problems[0] ?? '', /bad\.md: tools: unknown tool 'Teleport'/);
  assert.match(result.stderr, /teams: .*bad\.md: tools: unknown tool 'Teleport'.*\nteams: 1 agent definition cannot be used \(said above\)\n$/);
});

test('teams spawn needs --role or --agent', async () => {
  const home = fresh();
  const result = await runCli(home, ['spawn', 'bob']);
  assert.equal(result.code, 2);
  assert.match(result.stderr, /give --role, or --agent/);
});
