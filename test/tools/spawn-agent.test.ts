import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { spawnTeammateTool } from '../../src/tools/spawn-teammate.js';
import { parseToolInput } from '../../src/tools/tool.js';
import { teammateToolName, teammateToolsAllowed } from '../../src/tools/tool-filter.js';
import type { LeadTeamIO, Spawned, SpawnSpec } from '../../src/tools/team-io.js';
import { findAgentDefinition } from '../../src/agent/agent-definitions.js';
import { settleSpawn, respawnRole, type SettledSpawn } from '../../src/lead/agent-spawn.js';
import type { PermissionMode } from '../../src/protocol/fields.js';
import { tempHome } from '../helpers/temp.js';

const temp = tempHome('teams-spawn-agent-');
test.after(() => temp.cleanup());
const home = temp.home;
mkdirSync(join(home, 'agents'), { recursive: true });
writeFileSync(join(home, 'agents', 'reviewer.md'), '---\nname: reviewer\ndescription: Reviews changes\ntools: Read, Bash\nmodel: claude-haiku-4-5\npermission_mode: plan\n---\nYou review code.\n');
writeFileSync(join(home, 'agents', 'fixer.md'), '---\nname: fixer\ndescription: Fixes fast\npermission_mode: bypass\nisolation: worktree\n---\nYou fix things.\n');
const find = (name: string) => findAgentDefinition(home, name);

/** The lead's side as far as a spawn's settling goes: what LeadTeammates.spawn does first, recorded. */
function leadWith(mode: PermissionMode): { io: Pick<{ team: LeadTeamIO }, 'team'>; settled: SettledSpawn[] } {
  const settled: SettledSpawn[] = [];
  const spawnTeammate = (spec: SpawnSpec): Promise<Spawned> => {
    try {
      const done = settleSpawn(spec, mode, find);
      settled.push(done);
      return Promise.resolve({ pid: 7, model: done.model ?? 'claude-sonnet-5-5', role: done.role, mode: done.permissionMode ?? 'default' });
    } catch (error) {
      return Promise.reject(error as Error);
    }
  };
  const team = new Proxy({ spawnTeammate } as unknown as LeadTeamIO, {
    get: (target, key) => (key === 'spawnTeammate' ? target.spawnTeammate : assert.fail(`team.${String(key)} was used`)),
  });
  return { io: { team }, settled };
}

async function run(raw: unknown, mode: PermissionMode = 'default') {
  const parsed = parseToolInput(spawnTeammateTool, raw);
  assert.ok(parsed.ok, parsed.ok ? '' : parsed.error);
  const lead = leadWith(mode);
  const result = await spawnTeammateTool.run(parsed.input, lead.io);
  return { result, settled: lead.settled };
}

test('spawn_teammate{agent}: the definition gives the name, role, prompt, tools, model and mode', async () => {
  const { result, settled } = await run({ agent: 'reviewer', prompt: 'Review src/.' });
  assert.equal(result.content, "Spawned reviewer as agent 'reviewer' (reviewer, claude-haiku-4-5, pid 7) in plan mode: it will submit a plan for approval before changing anything.");
  assert.deepEqual(settled[0], {
    name: 'reviewer',
    role: 'reviewer',
    prompt: 'Review src/.',
    planMode: false,
    model: 'claude-haiku-4-5',
    permissionMode: 'plan',
    asker: 'model',
    agent: { name: 'reviewer', prompt: 'You review code.', tools: ['read_file', 'bash'] },
  });
});

test('explicit inputs win over the definition, but its mode never goes beyond the lead', async () => {
  const { settled } = await run({ name: 'bob', agent: 'reviewer', role: 'second reviewer', prompt: 'x', model: 'claude-opus-5', permission_mode: 'default' });
  assert.equal(settled[0]?.name, 'bob');
  assert.equal(settled[0]?.role, 'second reviewer');
  assert.equal(settled[0]?.model, 'claude-opus-5');
  assert.equal(settled[0]?.permissionMode, 'default');
  assert.equal(settled[0]?.agent?.prompt, 'You review code.');
  // A definition asking for bypass under a lead in default mode: refused, naming the file and field.
  const parsed = parseToolInput(spawnTeammateTool, { agent: 'fixer', prompt: 'x' });
  assert.ok(parsed.ok);
  await assert.rejects(spawnTeammateTool.run(parsed.input, leadWith('default').io), /fixer\.md: permission_mode: permission mode 'bypass' is more permissive than the lead's own \('default'\)/);
  // Even a human's /spawn --agent: the file is no person's grant.
  assert.throws(() => settleSpawn({ name: 'f', agent: 'fixer', prompt: 'x', planMode: false, asker: 'human' }, 'default', find), /more permissive/);
  // A human's explicit --mode is still their grant; the definition's worktree is kept.
  const granted = settleSpawn({ name: 'f', agent: 'fixer', prompt: 'x', planMode: false, permissionMode: 'bypass', asker: 'human' }, 'default', find);
  assert.equal(granted.permissionMode, 'bypass');
  assert.equal(granted.asker, 'human');
  assert.equal(granted.isolation, 'worktree');
  // Under a lead in bypass the definition's mode is within bounds.
  assert.equal((await run({ agent: 'fixer', prompt: 'x' }, 'bypass')).settled[0]?.permissionMode, 'bypass');
});

test('an unknown agent is an error listing the available ones; bad combinations are named by field', async () => {
  const parsed = parseToolInput(spawnTeammateTool, { agent: 'tester', prompt: 'x' });
  assert.ok(parsed.ok);
  await assert.rejects(spawnTeammateTool.run(parsed.input, leadWith('default').io), { message: "no agent definition 'tester' (available: fixer, reviewer)" });
  const respawn = parseToolInput(spawnTeammateTool, { name: 'bob', agent: 'reviewer', respawn: true });
  assert.equal(respawn.ok, false);
  assert.match(respawn.ok ? '' : respawn.error, /agent: not given with respawn/);
  const nothing = parseToolInput(spawnTeammateTool, { prompt: 'x' });
  assert.match(nothing.ok ? '' : nothing.error, /name: required .*or give agent.*; role: required/);
  assert.throws(() => settleSpawn({ name: 'bob', prompt: 'x', planMode: false }, 'default', find), /a role is needed/);
  // Without an agent, nothing changes.
  assert.deepEqual(settleSpawn({ name: 'bob', role: 'coder', prompt: 'x', planMode: false }, 'default', find), { name: 'bob', role: 'coder', prompt: 'x', planMode: false });
});

test('a respawn reads its definition again, and is refused when it is gone', () => {
  assert.deepEqual(respawnRole('bob', 'reviewer', find), { name: 'reviewer', prompt: 'You review code.', tools: ['read_file', 'bash'] });
  assert.equal(respawnRole('bob', undefined, find), undefined);
  assert.throws(() => respawnRole('bob', 'gone', find), /cannot respawn bob as agent 'gone': no agent definition 'gone'/);
});

test("a definition's tools narrow a teammate's, never the ones it needs to report, plan or stop", () => {
  const names = (allowed?: string[]) => teammateToolsAllowed(allowed, { planMode: true }).map((tool) => tool.name);
  assert.deepEqual(names(['read_file']), ['read_file', 'send_message', 'task_list', 'task_claim', 'task_update', 'shutdown_response', 'plan_approval_request', 'finish_request']);
  assert.ok(names(undefined).includes('write_file') && names(undefined).includes('broadcast'));
  assert.equal(teammateToolName('Read'), 'read_file');
  assert.equal(teammateToolName('MultiEdit'), 'edit_file');
  assert.equal(teammateToolName('bash'), 'bash');
  // The lead's own tools are not a teammate's to be given.
  assert.equal(teammateToolName('spawn_teammate'), undefined);
  assert.equal(teammateToolName('Grep'), undefined);
});
