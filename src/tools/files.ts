import { constants } from 'node:fs';
import type { FileHandle } from 'node:fs/promises';
import { asError } from '../lib/index.js';
import { forbiddenDirectories, inParentOf, openRegular, type Walk } from './beneath.js';
import { confinedTarget, hiddenBelow, hiddenError } from './confine.js';
import { hiddenStateAround } from '../sandbox/index.js';

/**
 * What the file tools read and write through. Paths are as the model gave them, relative
 * to the working directory; the implementation confines them to it. Errors are thrown
 * with messages written for the model.
 */
export interface FileIO {
  readText(path: string): Promise<string>;
  /** Create or replace the file, creating missing parent directories. */
  writeText(path: string, content: string): Promise<{ created: boolean }>;
}

// A tool result this big would not fit a model's context anyway.
export const MAX_READ_BYTES = 5 * 1024 * 1024;

/** The file (or a directory on its way) does not exist: a preview shows it as absent. */
export class MissingFileError extends Error {
  override name = 'MissingFileError';
}

function describe(error: unknown, path: string): Error {
  const code = (error as NodeJS.ErrnoException).code;
  if (code === 'ENOENT') return new MissingFileError(`file '${path}' does not exist`);
  if (code === 'EISDIR') return new Error(`'${path}' is a directory, not a file`);
  if (code === 'ENOTDIR') return new Error(`'${path}': a parent of it is a file, not a directory`);
  if (code === 'EACCES' || code === 'EPERM') return new Error(`permission denied: '${path}'`);
  return asError(error);
}

/**
 * File I/O confined to `root`, with `hidden` (the team's state, and every other state root) out of reach inside it. The
 * confinement checks choose the real path; the descriptor walk (beneath.ts) opens exactly
 * that path, never following a link, so a link swapped in meanwhile fails the call instead of
 * redirecting it outside the working directory, into `.git` or into the team's state.
 */
export function realFileIO(root: string, hidden: readonly string[] = []): FileIO {
  async function walkTo(path: string, write: boolean): Promise<Walk> {
    // Other teams' state roots inside the working directory too, the ones the sandbox hides (state-roots.ts).
    const hiddenNow = hiddenStateAround(root, hidden);
    const { realRoot, parts } = await confinedTarget(root, path, hiddenNow, write);
    const forbidden = await forbiddenDirectories(hiddenBelow(root, hiddenNow).map((dir) => ({ dir, error: () => hiddenError(path, dir) })));
    return { root: realRoot, parts, path, forbidden };
  }

  return {
    async readText(path) {
      const walk = await walkTo(path, false);
      try {
        const data = await inParentOf(walk, false, async (dir, name) => {
          const file = await openRegular(dir, name, constants.O_RDONLY, walk);
          try {
            const { size } = await file.stat();
            if (size > MAX_READ_BYTES) throw new Error(`file '${path}' is ${size} bytes, more than the ${MAX_READ_BYTES} a tool may read; use bash (head, sed -n, grep) to read parts of it`);
            return await file.readFile();
          } finally {
            await file.close();
          }
        });
        if (data.includes(0)) throw new Error(`file '${path}' is binary (${data.length} bytes), not text`);
        return data.toString('utf8');
      } catch (error) {
        throw describe(error, path);
      }
    },
    async writeText(path, content) {
      const walk = await walkTo(path, true);
      try {
        return await inParentOf(walk, true, async (dir, name) => {
          const { file, created } = await openForWrite(dir, name, walk);
          try {
            // Truncated only now that it is known to be a regular file, not at open.
            await file.truncate(0);
            await file.writeFile(content, 'utf8');
            return { created };
          } finally {
            await file.close();
          }
        });
      } catch (error) {
        throw describe(error, path);
      }
    },
  };
}

/**
 * The existing file, or a new one created exclusively, so that a link put there meanwhile
 * fails instead of being followed; a file created by someone else meanwhile is opened again.
 */
async function openForWrite(dir: FileHandle, name: string, walk: Walk): Promise<{ file: FileHandle; created: boolean }> {
  for (let attempt = 0; ; attempt++) {
    try {
      return { file: await openRegular(dir, name, constants.O_WRONLY, walk), created: false };
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
    }
    try {
      return { file: await openRegular(dir, name, constants.O_WRONLY | constants.O_CREAT | constants.O_EXCL, walk), created: true };
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST' || attempt > 0) throw error;
    }
  }
}
