// What the bundle is made of, as one hash: `npm start` rebuilds only when it changed
// (bin/build-if-changed.js), and bin/bundle.js records it beside the bundle it made.
import { createHash } from 'node:crypto';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';

export const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..');
/** Written after a bundle is made, holding the hash of the inputs it was made from. */
export const STAMP = join(ROOT, 'dist', 'bundle', '.inputs');
const INPUTS = ['src', 'bin/bundle.js', 'bin/build-inputs.js', 'package-lock.json', 'tsconfig.json'];

function files(path) {
  if (!existsSync(path)) return [];
  const entries = readdirSync(path, { withFileTypes: true, recursive: true });
  return entries.filter((entry) => entry.isFile()).map((entry) => join(entry.parentPath, entry.name));
}

/** sha256 over every input file's path and bytes, in a fixed order. */
export function inputsHash() {
  const hash = createHash('sha256');
  for (const input of INPUTS) {
    const path = join(ROOT, input);
    const list = input.includes('.') ? [path] : files(path).sort();
    for (const file of list) {
      if (!existsSync(file)) continue;
      hash.update(`${relative(ROOT, file)}\0`);
      hash.update(readFileSync(file));
      hash.update('\0');
    }
  }
  return hash.digest('hex');
}
