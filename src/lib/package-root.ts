import { existsSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

/**
 * The package's own directory, where prompts/, package.json and dist/ live. Found by walking
 * up from this file rather than by a fixed `../../..`, because this code runs from more than
 * one place: compiled by tsc (dist/src/lib/) and bundled by esbuild (dist/bundle/), at
 * different depths. Nothing between here and the package root has a package.json.
 */
function findPackageRoot(from: string): string {
  for (let dir = dirname(from); ; dir = dirname(dir)) {
    if (existsSync(join(dir, 'package.json'))) return dir;
    if (dirname(dir) === dir) throw new Error(`no package.json above ${from}`);
  }
}

export const PACKAGE_ROOT = findPackageRoot(fileURLToPath(import.meta.url));
