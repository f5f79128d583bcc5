import { after, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { TeammateWorktrees } from '../../src/lead/teammate-worktrees.js';
import { addMember } from '../../src/store/roster-changes.js';
import { findMember } from '../../src/store/roster.js';
import { teamPaths } from '../../src/team/paths.js';
import { storeOf } from '../helpers/store.js';

/** The lead's side of a teammate's worktree across spawn, exit and respawn, on a real repository and store. */
describe("the lead's teammate worktrees", () => {
  const repo = mkdtempSync(join(tmpdir(), 'teams-lead-worktrees-'));
  after(() => rmSync(repo, { recursive: true, force: true }));
  execFileSync('git', ['init', '-q', repo]);
  execFileSync('git', ['-C', repo, '-c', 'user.name=h', '-c', 'user.email=h@example.invalid', 'commit', '-q', '--allow-empty', '-m', 'start']);
  const home = join(repo, '.teams');
  const store = storeOf(home);
  after(() => store.close());
  const seen: string[] = [];
  const worktrees = new TeammateWorktrees(store, teamPaths(home, 'default'), repo, async (input) => void (input.type === 'notice' && seen.push(input.text)));
  const member = async () => findMember((await store.roster.load())!, 'alice');

  test('spawn, exit with work, respawn in the same worktree; exit with it merged, respawn in a new one; a plain spawn has none', async () => {
    await store.roster.ensure();
    await addMember(store.roster, { name: 'alice', role: 'coder' });
    assert.equal(await worktrees.prepare('alice', await member(), false, false), undefined, 'not asked for');
    const first = await worktrees.prepare('alice', await member(), true, false);
    assert.ok(first);
    await worktrees.record('alice', await member(), first);
    assert.deepEqual((await member())?.worktree, first);

    writeFileSync(join(first.path, 'work.txt'), 'work\n');
    await worktrees.settle(await member());
    assert.match(seen.at(-1) ?? '', /alice's worktree is kept: what it left uncommitted was committed/);
    assert.ok((await store.audit.read()).entries.some((e) => e.event === 'member' && /worktree is kept/.test(e.change)));
    assert.deepEqual(await worktrees.prepare('alice', await member(), false, true), first, 'a respawn goes on in it');

    execFileSync('git', ['-C', repo, '-c', 'user.name=h', '-c', 'user.email=h@example.invalid', 'merge', '-q', '--no-edit', first.branch]);
    await worktrees.settle(await member());
    assert.match(seen.at(-1) ?? '', /alice's worktree was removed \(nothing unmerged\)/);
    assert.equal(existsSync(first.path), false);
    const second = await worktrees.prepare('alice', await member(), false, true);
    assert.equal(second?.path, first.path);
    assert.notEqual(second?.base, first.base, "a new one, from the lead's HEAD now");

    await worktrees.record('alice', await member(), undefined);
    assert.equal((await member())?.worktree, undefined, 'a spawn without one clears the record');
  });
});
