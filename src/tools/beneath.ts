import { constants } from 'node:fs';
import { lstat, mkdir, open, stat, type FileHandle } from 'node:fs/promises';
import type { Stats } from 'node:fs';

/**
 * Opening a file below the working directory through directory descriptors, openat-style:
 * the confinement checks (confine.ts) decide which real path a tool call may use, and this
 * walk is what makes that decision binding. Node has no openat(2), so each component is
 * opened relative to the descriptor held for its parent through `/proc/self/fd/<fd>/<name>`:
 * the kernel jumps to the open directory itself, and `<name>` is then the last component, so
 * O_NOFOLLOW applies to it. A directory swapped for a symbolic link after it was opened does
 * not matter (the descriptor still holds the directory); one swapped before fails the open,
 * and the tool call fails with SymbolicLinkInPathError. Nothing is ever resolved by path.
 */

const DIRECTORY = constants.O_RDONLY | constants.O_DIRECTORY | constants.O_NOFOLLOW;
// O_NONBLOCK: opening a FIFO must not wait for a peer; it is refused after fstat anyway.
const FILE = constants.O_NOFOLLOW | constants.O_NONBLOCK | constants.O_NOCTTY;

/** A component of the path was a symbolic link when the walk reached it. */
export class SymbolicLinkInPathError extends Error {
  override name = 'SymbolicLinkInPathError';
}

/** The file is a FIFO, a device or a socket: never read or written, so nothing blocks. */
export class NotRegularFileError extends Error {
  override name = 'NotRegularFileError';
}

/** A directory the walk refuses to enter, known by device and inode (the team's state). */
export type Forbidden = { dev: number; ino: number; error: () => Error };

export type Walk = {
  /** The real working directory: trusted, opened by path. */
  root: string;
  /** Components below it, links already resolved by the confinement check; no `.` or `..`. */
  parts: readonly string[];
  /** The path as the model gave it, for messages. */
  path: string;
  forbidden: readonly Forbidden[];
};

function below(dir: FileHandle, name: string): string {
  return `/proc/self/fd/${dir.fd}/${name}`;
}

function errnoOf(error: unknown): string | undefined {
  return (error as NodeJS.ErrnoException).code;
}

function kindOf(info: Stats): string {
  if (info.isFIFO()) return 'a FIFO';
  if (info.isSocket()) return 'a socket';
  if (info.isCharacterDevice() || info.isBlockDevice()) return 'a device';
  if (info.isSymbolicLink()) return 'a symbolic link';
  return 'not a regular file';
}

/** Why opening `name` failed, when the reason is a link or a special file there now. */
async function explain(error: unknown, dir: FileHandle, name: string, walk: Walk, depth: number): Promise<Error> {
  const code = errnoOf(error);
  // EEXIST: O_CREAT|O_EXCL met something, a link included, put there since the file was missing.
  if (code !== 'ELOOP' && code !== 'ENOTDIR' && code !== 'ENXIO' && code !== 'ENODEV' && code !== 'EEXIST') return error as Error;
  const info = await lstat(below(dir, name)).catch(() => undefined);
  const special = info !== undefined && !info.isFile() && !info.isDirectory() && !info.isSymbolicLink();
  if (special && code !== 'ELOOP' && depth === walk.parts.length - 1) return notRegular(walk.path, info);
  // With O_NOFOLLOW, ELOOP is a link; so is ENOTDIR on a directory's open when a directory or
  // nothing is there now (the link was swapped again before we looked).
  const link = code === 'ELOOP' || info?.isSymbolicLink() === true || (code === 'ENOTDIR' && (info === undefined || info.isDirectory()));
  if (!link) return error as Error;
  const at = walk.parts.slice(0, depth + 1).join('/');
  return new SymbolicLinkInPathError(
    `path '${walk.path}' passes through a symbolic link at '${at}' that was not there when the path was checked (a command may be replacing it); nothing was read or written. Try again, or name the link's target`,
  );
}

function notRegular(path: string, info: Stats): NotRegularFileError {
  return new NotRegularFileError(`'${path}' is ${kindOf(info)}, not a regular file; the file tools only read and write regular files`);
}

async function openDirectory(dir: FileHandle, name: string, create: boolean, walk: Walk, depth: number): Promise<FileHandle> {
  for (let attempt = 0; ; attempt++) {
    try {
      return await open(below(dir, name), DIRECTORY);
    } catch (error) {
      if (errnoOf(error) !== 'ENOENT' || !create || attempt > 0) throw await explain(error, dir, name, walk, depth);
    }
    // mkdir does not follow a link in the last component either: a link put there meanwhile
    // makes it fail with EEXIST, and the open above then refuses the link.
    await mkdir(below(dir, name)).catch((error: unknown) => (errnoOf(error) === 'EEXIST' ? undefined : Promise.reject(error)));
  }
}

async function refuseForbidden(handle: FileHandle, walk: Walk): Promise<void> {
  if (walk.forbidden.length === 0) return;
  const info = await handle.stat();
  const hit = walk.forbidden.find((f) => f.dev === info.dev && f.ino === info.ino);
  if (hit) throw hit.error();
}

/**
 * Run `use` with the descriptor of the directory that holds the walk's last component, and
 * that component's name; every directory on the way is opened without following links and
 * checked against the forbidden ones. Missing directories are created when `create` is set.
 */
export async function inParentOf<T>(walk: Walk, create: boolean, use: (dir: FileHandle, name: string) => Promise<T>): Promise<T> {
  const name = walk.parts.at(-1);
  if (name === undefined) throw Object.assign(new Error('the working directory itself'), { code: 'EISDIR' });
  const held: FileHandle[] = [await open(walk.root, constants.O_RDONLY | constants.O_DIRECTORY)];
  try {
    for (const [depth, part] of walk.parts.slice(0, -1).entries()) {
      const next = await openDirectory(held.at(-1) as FileHandle, part, create, walk, depth);
      held.push(next);
      await refuseForbidden(next, walk);
    }
    return await use(held.at(-1) as FileHandle, name);
  } finally {
    await Promise.all(held.map((handle) => handle.close()));
  }
}

/**
 * Open the walk's last component in `dir` with `flags` (O_RDONLY or O_WRONLY, O_CREAT|O_EXCL
 * allowed), never through a link; anything but a regular file is closed again and refused.
 */
export async function openRegular(dir: FileHandle, name: string, flags: number, walk: Walk): Promise<FileHandle> {
  let file: FileHandle;
  try {
    file = await open(below(dir, name), flags | FILE, 0o666);
  } catch (error) {
    throw await explain(error, dir, name, walk, walk.parts.length - 1);
  }
  const info = await file.stat().catch(async (error: unknown) => {
    await file.close();
    throw error;
  });
  if (info.isFile()) return file;
  await file.close();
  if (info.isDirectory()) throw Object.assign(new Error('directory'), { code: 'EISDIR' });
  throw notRegular(walk.path, info);
}

/** The identities of `dirs` that exist, each with the error that names it. */
export async function forbiddenDirectories(dirs: readonly { dir: string; error: () => Error }[]): Promise<Forbidden[]> {
  const found = await Promise.all(
    dirs.map(async ({ dir, error }) => {
      const info = await stat(dir).catch(() => undefined);
      return info?.isDirectory() ? { dev: info.dev, ino: info.ino, error } : undefined;
    }),
  );
  return found.filter((f) => f !== undefined);
}
