import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import ts from 'typescript';
import { PACKAGE_ROOT } from '../../src/lib/package-root.js';

/**
 * One meaning per name (issue 20): an exported name is declared by one module only, so an
 * import's name says which thing it is. Re-exports (a folder's index.ts) do not count: they
 * name the same thing again.
 */

const SRC = join(PACKAGE_ROOT, 'src');

function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return sourceFiles(path);
    return /\.tsx?$/.test(entry.name) && !entry.name.endsWith('.d.ts') ? [path] : [];
  });
}

/** The names a module declares and exports itself. */
function declaredExports(source: ts.SourceFile): string[] {
  return source.statements.flatMap((statement) => {
    const exported = ts.canHaveModifiers(statement) && ts.getModifiers(statement)?.some((m) => m.kind === ts.SyntaxKind.ExportKeyword);
    if (!exported) return [];
    if (ts.isVariableStatement(statement)) return statement.declarationList.declarations.flatMap((d) => (ts.isIdentifier(d.name) ? [d.name.text] : []));
    const name = (statement as { name?: ts.Node }).name;
    return name && ts.isIdentifier(name) ? [name.text] : [];
  });
}

test('no exported name is declared by two modules', () => {
  const declaredIn = new Map<string, string[]>();
  for (const path of sourceFiles(SRC)) {
    const source = ts.createSourceFile(path, readFileSync(path, 'utf8'), ts.ScriptTarget.Latest, true);
    for (const name of new Set(declaredExports(source))) declaredIn.set(name, [...(declaredIn.get(name) ?? []), relative(PACKAGE_ROOT, path)]);
  }
  assert.ok(declaredIn.size > 500, `only ${declaredIn.size} exported names found under ${SRC}`);
  const twice = [...declaredIn].filter(([, files]) => files.length > 1).map(([name, files]) => `${name}: ${files.join(', ')}`);
  assert.deepEqual(twice, []);
});

test('the check sees a name declared twice', () => {
  const parse = (text: string) => declaredExports(ts.createSourceFile('x.ts', text, ts.ScriptTarget.Latest, true));
  assert.deepEqual(parse('export type A = 1; export const B = 2, C = 3; export function D() {} export class E {} const F = 1; export { F };'), ['A', 'B', 'C', 'D', 'E']);
});
