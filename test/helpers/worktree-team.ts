import { execFileSync } from 'node:child_process';
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { teamPaths } from '../../src/team/paths.js';
import { createWorktree } from '../../src/worktree/worktree.js';
import { addMember, setMemberWorktree } from '../../src/store/roster-changes.js';
import { storeOf } from './store.js';

/** git in `cwd` with a committer identity, as a person would run it. */
export const sh = (cwd: string, ...args: string[]): string =>
  execFileSync('git', ['-C', cwd, '-c', 'user.name=h', '-c', 'user.email=h@example.invalid', ...args], { encoding: 'utf8' });

/** A repository `base/<name>` with one commit, a team in its `.teams`, and `name`'s worktree, no lead running. */
export async function teamWithWorktree(base: string, name: string): Promise<{ repo: string; home: string; path: string }> {
  const repo = join(base, name);
  mkdirSync(repo);
  sh(repo, 'init', '-q', '-b', 'main');
  sh(repo, 'commit', '-q', '--allow-empty', '-m', 'start');
  const home = join(repo, '.teams');
  const store = storeOf(home);
  await store.roster.ensure();
  await addMember(store.roster, { name, role: 'coder', status: 'shutdown' });
  const record = await createWorktree(repo, teamPaths(home, 'default'), name);
  await setMemberWorktree(store.roster, name, record);
  await store.close();
  return { repo, home, path: record.path };
}
