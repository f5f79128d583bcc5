import { lstat, realpath } from 'node:fs/promises';
import { dirname, isAbsolute, join, relative, resolve, sep } from 'node:path';
import { isGitPath } from '../policy/index.js';

/**
 * The file tools work inside the working directory only. A path is resolved against it and
 * refused when it leaves it by `..`, by being absolute elsewhere, or through a symbolic link
 * pointing out: the deepest part of the path that exists is resolved with realpath, so a
 * file not yet created is judged by the directory it would be created in.
 */
export class OutsideWorkingDirectoryError extends Error {
  override name = 'OutsideWorkingDirectoryError';
}

function within(path: string, root: string): boolean {
  const rel = relative(root, path);
  return rel === '' || (!rel.startsWith(`..${sep}`) && rel !== '..' && !isAbsolute(rel));
}

/** The real path of `path`'s deepest existing ancestor (or itself), joined with the rest. */
async function realPathOfPrefix(path: string): Promise<{ real: string; dangling: boolean }> {
  const rest: string[] = [];
  let current = path;
  for (;;) {
    try {
      return { real: join(await realpath(current), ...rest.reverse()), dangling: false };
    } catch (error) {
      const code = (error as NodeJS.ErrnoException).code;
      if (code !== 'ENOENT' && code !== 'ENOTDIR') throw error;
    }
    // realpath fails on a symlink to nowhere too; writing through it would create its target.
    const isLink = await lstat(current).then((s) => s.isSymbolicLink(), () => false);
    if (isLink) {
      // It may have appeared since realpath failed (a command swapping it): judge where it leads now.
      const target = await realpath(current).catch(() => undefined);
      return target === undefined ? { real: current, dangling: true } : { real: join(target, ...rest.reverse()), dangling: false };
    }
    const parent = dirname(current);
    if (parent === current) return { real: path, dangling: false };
    rest.push(current.slice(parent.length).replace(/^[\\/]+/, ''));
    current = parent;
  }
}

async function realOrResolved(path: string): Promise<string> {
  return realpath(path).catch(() => resolve(path));
}

/**
 * The absolute path a tool may use for `path`, or an error naming why not. `hidden` are
 * directories inside the working directory that tools may neither read nor write: the
 * team's state (`./.teams` by default), which the sandbox hides from commands as well.
 */
export async function confinePath(root: string, path: string, hidden: readonly string[] = []): Promise<string> {
  if (path.trim() === '') throw new Error('path is empty');
  const absolute = resolve(root, path);
  const outside = `path '${path}' is outside the working directory ${root}`;
  if (!within(absolute, root)) throw new OutsideWorkingDirectoryError(outside);
  const realRoot = await realpath(root);
  const { real, dangling } = await realPathOfPrefix(absolute);
  if (dangling) throw new OutsideWorkingDirectoryError(`path '${path}' is a symbolic link to a file that does not exist`);
  if (!within(real, realRoot)) throw new OutsideWorkingDirectoryError(`${outside} (through a symbolic link to ${real})`);
  for (const dir of hiddenBelow(root, hidden)) {
    if (within(absolute, resolve(dir)) || within(real, await realOrResolved(dir))) throw hiddenError(path, dir);
  }
  return absolute;
}

/** The hidden directories that bind in `root`: a working directory inside the state root (the offline workspace) is the agent's own. */
export function hiddenBelow(root: string, hidden: readonly string[]): string[] {
  return hidden.filter((dir) => !within(root, resolve(dir)));
}

export function hiddenError(path: string, dir: string): OutsideWorkingDirectoryError {
  return new OutsideWorkingDirectoryError(`path '${path}' is inside the team's state directory ${dir}, which tools cannot read or write`);
}

/**
 * As confinePath, for a write: refused as well when symbolic links lead it into a `.git` that
 * the path itself does not name. The policy asks before any write into `.git` (git runs its
 * hooks and config outside the sandbox), judging by where links led when it decided; a link
 * swapped since by another agent's command must not carry an unasked write there.
 */
export async function confineWritePath(root: string, path: string, hidden: readonly string[] = []): Promise<string> {
  const absolute = await confinePath(root, path, hidden);
  refuseGitThroughLink(root, path, absolute, await realRelativePath(root, path));
  return absolute;
}

function refuseGitThroughLink(root: string, path: string, absolute: string, real: string | undefined): void {
  if (real !== undefined && isGitPath(real) && !isGitPath(relative(root, absolute).split(sep).join('/'))) {
    throw new Error(`path '${path}' leads into a .git directory (${real}) through a symbolic link; name the .git path itself if it must be written`);
  }
}

/**
 * The checks above for a read or a write, and where the path led when they passed: the real
 * working directory and the components below it. The file tools open exactly these through
 * directory descriptors (beneath.ts), so a link swapped in since cannot redirect them.
 */
export async function confinedTarget(root: string, path: string, hidden: readonly string[], write: boolean): Promise<{ realRoot: string; parts: string[] }> {
  const absolute = await (write ? confineWritePath : confinePath)(root, path, hidden);
  // Resolved again, as links may have changed since: the parts opened are the ones checked here.
  const realRoot = await realpath(root);
  const { real, dangling } = await realPathOfPrefix(absolute);
  if (dangling || !within(real, realRoot)) throw new OutsideWorkingDirectoryError(`path '${path}' is outside the working directory ${root} (through a symbolic link to ${real})`);
  const parts = relative(realRoot, real).split(sep).filter((part) => part !== '');
  if (write) refuseGitThroughLink(root, path, absolute, parts.join('/'));
  return { realRoot, parts };
}

/**
 * Where `path` really leads, relative to the real working directory, for the permission
 * rules: undefined when it leads outside, through a dangling link, or cannot be resolved.
 */
export async function realRelativePath(root: string, path: string): Promise<string | undefined> {
  try {
    const realRoot = await realpath(root);
    const { real, dangling } = await realPathOfPrefix(resolve(root, path));
    if (dangling || !within(real, realRoot)) return undefined;
    return relative(realRoot, real).split(sep).join('/');
  } catch {
    return undefined;
  }
}

/** A tool call's `path`, resolved as above; undefined when the call names none. */
export function realPathOfCall(root: string, input: Record<string, unknown>): Promise<string | undefined> {
  return typeof input.path === 'string' ? realRelativePath(root, input.path) : Promise.resolve(undefined);
}
