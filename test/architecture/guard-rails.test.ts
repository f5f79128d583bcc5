import { test } from 'node:test';
import assert from 'node:assert/strict';
import { posix } from 'node:path';
import { readSourceTree, topFolder, type SourceFile } from './source-tree.js';

// Issue 20 §5: the shape of src/ that review alone would let drift. Each check lists every
// file:line that breaks it, so a failure says what to fix. dependency-cruiser's
// `through-the-index` rule says (a) too; this test also reads dynamic imports and `import()`
// types, and is the one place (b) to (e) are checked. It reads src/ as text (from the package
// root, not the working directory) and starts no process.

const tree = readSourceTree();

/** The store's opener, and the only two files that may open a store with it (one store per process). */
const SUB_FACE = 'store/open-store.ts';
const SUB_FACE_USERS = new Set(['cli/context.ts', 'teammate/main.ts']);
const MAX_LINES = 300;

const isTopFace = (path: string) => path === `${topFolder(path)}/index.ts`;
/** The faces other folders import: each top-level folder's index.ts, and the store's opener. */
const faces = [...tree.keys()].filter((path) => isTopFace(path) || path === SUB_FACE);

test('the source tree is read from the package root, whatever the working directory', () => {
  assert.ok(tree.has('lib/index.ts') && tree.has('cli/main.ts'), `src/ read as: ${[...tree.keys()].slice(0, 5).join(', ')}`);
  assert.ok(faces.length >= 15, `faces found: ${faces.join(', ')}`);
});

test('(a) a folder is imported from another folder only through its index.ts', () => {
  const wrong: string[] = [];
  for (const file of tree.values()) {
    for (const { line, specifier, target, dynamic } of file.imports) {
      const where = `src/${file.path}:${line} ${dynamic ? 'import(' : ''}'${specifier}'${dynamic ? ')' : ''}`;
      if (target === undefined) {
        // A package, or a relative path that must name a source file: one that names none would escape the rule.
        if (specifier === '?') wrong.push(`${where}: a computed specifier cannot be checked`);
        else if (specifier.startsWith('.') && !posix.join(posix.dirname(file.path), specifier).startsWith('..')) wrong.push(`${where}: names no source file`);
        continue;
      }
      if (topFolder(target) === topFolder(file.path) || isTopFace(target)) continue;
      if (target === SUB_FACE && SUB_FACE_USERS.has(file.path)) continue;
      const face = target === SUB_FACE ? `only ${[...SUB_FACE_USERS].join(' and ')} open the store` : `import src/${topFolder(target)}/index.ts`;
      wrong.push(`${where} reaches src/${target}: ${face}`);
    }
  }
  assert.deepEqual(wrong, []);
});

test(`(b) no source file passes ${MAX_LINES} lines`, () => {
  const long = [...tree.values()].filter((file) => file.lines > MAX_LINES).map((file) => `src/${file.path}: ${file.lines} lines`);
  assert.deepEqual(long, []);
});

/** The names other folders take from a face; undefined when one of them may take any. */
function namesTakenFrom(face: string): Set<string> | undefined {
  const owner = posix.dirname(face);
  const taken = new Set<string>();
  for (const file of tree.values()) {
    if (file.path.startsWith(`${owner}/`)) continue;
    for (const { target, taken: names } of file.imports) {
      if (target !== face) continue;
      if (names === 'all') return undefined;
      names.forEach((name) => taken.add(name));
    }
  }
  return taken;
}

test('(c) a face is only as wide as its use: each name an index.ts re-exports is imported by another folder', () => {
  const unused: string[] = [];
  for (const face of faces) {
    const taken = namesTakenFrom(face);
    for (const entry of tree.get(face)?.reExports ?? []) {
      if ('star' in entry) unused.push(`src/${face}:${entry.line} export * from '${entry.specifier}': name what other folders use`);
      else if (taken && !taken.has(entry.exported)) unused.push(`src/${face}:${entry.line} ${entry.exported}: no other folder imports it`);
    }
  }
  assert.deepEqual(unused, []);
});

/** The files under a folder (at any depth) that declare and export a name of their own. */
function declaring(folder: string, name: string): SourceFile[] {
  return [...tree.values()].filter((file) => file.path.startsWith(`${folder}/`) && file.declared.has(name));
}

test('(d) a name an index.ts re-exports is declared in one file of its folder: one meaning per name', () => {
  const twice: string[] = [];
  for (const index of [...tree.keys()].filter((path) => posix.basename(path) === 'index.ts')) {
    const folder = posix.dirname(index);
    for (const entry of tree.get(index)?.reExports ?? []) {
      if ('star' in entry) continue;
      for (const name of new Set([entry.name, entry.exported])) {
        const files = declaring(folder, name);
        if (files.length > 1) twice.push(`src/${index}:${entry.line} ${name} is declared in ${files.map((file) => `src/${file.path}`).join(' and ')}`);
      }
    }
  }
  assert.deepEqual(twice, []);
});

test('(e) what was thrown is made a message or an Error by lib\'s errorMessage and asError, not written out again', () => {
  const own = new Set(['lib/error-message.ts', 'lib/as-error.ts']);
  const inline = [...tree.values()]
    .filter((file) => !own.has(file.path))
    .flatMap((file) => file.errorIdioms.map(({ line, helper }) => `src/${file.path}:${line}: use ${helper} from src/lib/index.ts`));
  assert.deepEqual(inline, []);
});
