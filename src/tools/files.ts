import { asError } from '../lib/as-error.js';
import { mkdir, readFile, stat, writeFile } from 'node:fs/promises';
import { dirname } from 'node:path';
import { confinePath, confineWritePath } from './confine.js';

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

function describe(error: unknown, path: string): Error {
  const code = (error as NodeJS.ErrnoException).code;
  if (code === 'ENOENT') return new Error(`file '${path}' does not exist`);
  if (code === 'EISDIR') return new Error(`'${path}' is a directory, not a file`);
  if (code === 'ENOTDIR') return new Error(`'${path}': a parent of it is a file, not a directory`);
  if (code === 'EACCES' || code === 'EPERM') return new Error(`permission denied: '${path}'`);
  return asError(error);
}

/** File I/O confined to `root`, with `hidden` (the team's state) out of reach inside it. */
export function realFileIO(root: string, hidden: readonly string[] = []): FileIO {
  return {
    async readText(path) {
      const absolute = await confinePath(root, path, hidden);
      try {
        const info = await stat(absolute);
        if (info.isDirectory()) throw Object.assign(new Error('directory'), { code: 'EISDIR' });
        if (info.size > MAX_READ_BYTES) throw new Error(`file '${path}' is ${info.size} bytes, more than the ${MAX_READ_BYTES} a tool may read; use bash (head, sed -n, grep) to read parts of it`);
        const data = await readFile(absolute);
        if (data.includes(0)) throw new Error(`file '${path}' is binary (${data.length} bytes), not text`);
        return data.toString('utf8');
      } catch (error) {
        throw describe(error, path);
      }
    },
    async writeText(path, content) {
      const absolute = await confineWritePath(root, path, hidden);
      try {
        const existed = await stat(absolute).then((s) => {
          if (s.isDirectory()) throw Object.assign(new Error('directory'), { code: 'EISDIR' });
          return true;
        }, (error: NodeJS.ErrnoException) => {
          if (error.code === 'ENOENT') return false;
          throw error;
        });
        await mkdir(dirname(absolute), { recursive: true });
        await writeFile(absolute, content, 'utf8');
        return { created: !existed };
      } catch (error) {
        throw describe(error, path);
      }
    },
  };
}
