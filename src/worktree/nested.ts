import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import { git } from '../lib/index.js';

/**
 * Nested repositories and submodules in a teammate's work: shown to the human, never acted on.
 * A directory of the worktree holding its own `.git` is a repository the teammate made, with a
 * config (filters, fsmonitor, hooks) the teammate wrote; `git add` would record it as a gitlink,
 * and a later `git submodule update` or a recursing command of the human's would run git in it.
 * A gitlink (mode 160000) or a `.gitmodules` in the teammate's commits is the same thing
 * committed. The leftover commit leaves nested repositories out; `teams diff` names them and
 * `teams merge` refuses while the branch brings any.
 */

// The name git gives a repository's own directory (policy/places.ts is not the team layer's to import).
const GIT_DIR = '.git';

/**
 * The directories under `root` (relative, `/`-separated) that hold a `.git` of their own, file,
 * directory or link: read from the file system, without git, and without entering them or
 * following links. The worktree's own `.git` (at the top) is not one.
 */
export function nestedRepositories(root: string): string[] {
  const found: string[] = [];
  const walk = (relative: string, depth: number): void => {
    let entries;
    try {
      entries = readdirSync(join(root, relative), { withFileTypes: true });
    } catch {
      return;
    }
    if (relative !== '' && entries.some((entry) => entry.name === GIT_DIR)) {
      found.push(relative);
      return;
    }
    for (const entry of entries) {
      if (!entry.isDirectory() || entry.name === GIT_DIR) continue;
      // A tree deeper than this is not a project's; what lies below is left to the gitlink check.
      if (depth < 64) walk(relative === '' ? entry.name : `${relative}/${entry.name}`, depth + 1);
    }
  };
  walk('', 0);
  return found.sort();
}

/** Pathspecs that leave `paths` (relative to the top) out of an `add`: taken literally, never as patterns. */
export function excluding(paths: readonly string[]): string[] {
  return paths.map((path) => `:(top,exclude,literal)${path}`);
}

/** The gitlinks in a tree-ish (or, with `index`, in the index), as `<path> <object>` lines. */
async function gitlinks(cwd: string, treeish: string | 'index', env: Record<string, string>): Promise<Map<string, string>> {
  const listing = treeish === 'index' ? await git(cwd, ['ls-files', '--stage', '-z'], [0], env) : await git(cwd, ['ls-tree', '-r', '-z', '--full-tree', treeish], [0], env);
  const links = new Map<string, string>();
  for (const line of listing.stdout.split('\0')) {
    const match = /^160000 (?:commit )?([0-9a-f]{40,64})(?: \d)?\t(.+)$/s.exec(line);
    if (match?.[1] !== undefined && match[2] !== undefined) links.set(match[2], match[1]);
  }
  return links;
}

/**
 * What the teammate's change brings that would make git act on another repository: gitlinks new
 * or moved since `base` and a changed `.gitmodules`, in `target` (a commit, or the index).
 */
export async function submoduleChanges(cwd: string, base: string, target: string | 'index', env: Record<string, string> = {}): Promise<string[]> {
  const before = await gitlinks(cwd, base, env);
  const after = await gitlinks(cwd, target, env);
  const changed = [...after].filter(([path, object]) => before.get(path) !== object).map(([path]) => `${path} (a gitlink: another repository's commit)`);
  const modules = target === 'index' ? ['diff', '--cached', '--quiet', base, '--', '.gitmodules'] : ['diff', '--quiet', base, target, '--', '.gitmodules'];
  if ((await git(cwd, modules, [0, 1], env)).code === 1) changed.push('.gitmodules (submodule definitions)');
  return changed.sort();
}

/** The warning put before a diff, and the reason a merge is refused: one place for the words. */
export function describeNested(name: string, repositories: readonly string[], submodules: readonly string[]): string | undefined {
  const lines = [
    ...repositories.map((path) => `${path}/ (a nested git repository, left out of ${name}'s commits)`),
    ...submodules,
  ];
  if (lines.length === 0) return undefined;
  return `WARNING: ${name}'s work holds other repositories, which teams never adds, merges or runs git in:\n${lines.map((line) => `  ${line}`).join('\n')}`;
}
