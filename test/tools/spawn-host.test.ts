import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnTeammateTool } from '../../src/tools/spawn-teammate.js';

test('spawn_teammate takes a host for a new teammate and refuses one with respawn (it goes back where it ran)', () => {
  const placed = spawnTeammateTool.input.safeParse({ name: 'alice', role: 'coder', prompt: 'build it', host: 'build' });
  assert.ok(placed.success && !placed.data.respawn && placed.data.host === 'build');
  const respawn = spawnTeammateTool.input.safeParse({ name: 'alice', respawn: true, host: 'build' });
  assert.ok(!respawn.success && respawn.error.issues.some((issue) => issue.path.join('.') === 'host' && /goes back to the host/.test(issue.message)));
  const badName = spawnTeammateTool.input.safeParse({ name: 'alice', role: 'coder', prompt: 'x', host: 'Not A Host' });
  assert.ok(!badName.success && badName.error.issues.some((issue) => issue.path.join('.') === 'host'));
});
