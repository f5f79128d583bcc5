import { readdirSync, readFileSync } from 'node:fs';
import { join, posix } from 'node:path';
import ts from 'typescript';
import { PACKAGE_ROOT } from '../../src/lib/index.js';

/**
 * src/ as the guard rails see it: every source file with its imports, the names it declares
 * and the names it re-exports, read with the TypeScript parser so that a comment, a string or
 * a line break inside an import cannot hide one. Paths are relative to src/, with `/`.
 */

/** What an import takes from its module: these names, or everything (`* as ns`, `export *`, an unread dynamic import). */
export type Taken = ReadonlySet<string> | 'all';

export type Import = {
  line: number;
  specifier: string;
  /** The file it names, relative to src/; undefined for a package, or a relative path that names no source file. */
  target: string | undefined;
  taken: Taken;
  dynamic: boolean;
};

/** `export { name as exported } from './file.js'` or `export * from …`; `name` is the file's own name for it. */
export type ReExport = { line: number; specifier: string; target: string | undefined; name: string; exported: string } | { line: number; specifier: string; target: string | undefined; star: true };

export type SourceFile = {
  path: string;
  lines: number;
  imports: Import[];
  /** Names the file exports and declares itself: a value, type, class, interface or enum. */
  declared: ReadonlySet<string>;
  reExports: ReExport[];
  /** Where the file writes out what lib's errorMessage or asError does, instead of calling it. */
  errorIdioms: { line: number; helper: 'errorMessage' | 'asError' }[];
};

export const SRC = join(PACKAGE_ROOT, 'src');

const SOURCE = /\.tsx?$/;

function listSources(dir: string, prefix = ''): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = prefix ? `${prefix}/${entry.name}` : entry.name;
    if (entry.isDirectory()) return listSources(join(dir, entry.name), path);
    return SOURCE.test(entry.name) && !entry.name.endsWith('.d.ts') ? [path] : [];
  });
}

/** The top-level folder of src/ a path lies in. */
export const topFolder = (path: string): string => path.split('/')[0] ?? path;

/** The source file a relative specifier names (ESM specifiers end in .js for a .ts or .tsx file), or undefined. */
function resolve(from: string, specifier: string, known: ReadonlySet<string>): string | undefined {
  if (!specifier.startsWith('.')) return undefined;
  const joined = posix.normalize(posix.join(posix.dirname(from), specifier));
  const base = joined.replace(/\.(js|jsx)$/, '');
  return [`${base}.ts`, `${base}.tsx`, joined].find((candidate) => known.has(candidate));
}

function lineOf(file: ts.SourceFile, node: ts.Node): number {
  return file.getLineAndCharacterOfPosition(node.getStart(file)).line + 1;
}

const bound = (pattern: ts.ObjectBindingPattern): Taken =>
  pattern.elements.some((element) => element.dotDotDotToken !== undefined)
    ? 'all'
    : new Set(pattern.elements.map((element) => (element.propertyName ?? element.name).getText()));

/**
 * What a dynamic `import(…)` takes: the names destructured from `await import(…)` or from the
 * argument of its `.then(…)`; anything else may use every name.
 */
function takenByDynamic(call: ts.CallExpression): Taken {
  const awaited = ts.isAwaitExpression(call.parent) ? call.parent.parent : undefined;
  if (awaited && ts.isVariableDeclaration(awaited) && ts.isObjectBindingPattern(awaited.name)) return bound(awaited.name);
  const access = call.parent;
  if (ts.isPropertyAccessExpression(access) && access.name.text === 'then' && ts.isCallExpression(access.parent)) {
    const [callback] = access.parent.arguments;
    const [param] = callback && (ts.isArrowFunction(callback) || ts.isFunctionExpression(callback)) ? callback.parameters : [];
    if (param && ts.isObjectBindingPattern(param.name)) return bound(param.name);
  }
  return 'all';
}

function importsOf(file: ts.SourceFile, path: string, known: ReadonlySet<string>): { imports: Import[]; reExports: ReExport[] } {
  const imports: Import[] = [];
  const reExports: ReExport[] = [];
  const add = (node: ts.Node, specifier: string, taken: Taken, dynamic: boolean) =>
    imports.push({ line: lineOf(file, node), specifier, target: resolve(path, specifier, known), taken, dynamic });

  const visit = (node: ts.Node): void => {
    if (ts.isImportDeclaration(node) && ts.isStringLiteral(node.moduleSpecifier)) {
      const clause = node.importClause;
      const bindings = clause?.namedBindings;
      let taken: Taken;
      if (bindings && ts.isNamespaceImport(bindings)) taken = 'all';
      else {
        const names = new Set(bindings ? bindings.elements.map((element) => (element.propertyName ?? element.name).text) : []);
        if (clause?.name) names.add('default');
        taken = names;
      }
      add(node, node.moduleSpecifier.text, taken, false);
    } else if (ts.isExportDeclaration(node) && node.moduleSpecifier && ts.isStringLiteral(node.moduleSpecifier)) {
      const specifier = node.moduleSpecifier.text;
      const target = resolve(path, specifier, known);
      const line = lineOf(file, node);
      const clause = node.exportClause;
      if (clause && ts.isNamedExports(clause)) {
        for (const element of clause.elements) {
          reExports.push({ line, specifier, target, name: (element.propertyName ?? element.name).text, exported: element.name.text });
        }
        add(node, specifier, new Set(clause.elements.map((element) => (element.propertyName ?? element.name).text)), false);
      } else {
        reExports.push({ line, specifier, target, star: true });
        add(node, specifier, 'all', false);
      }
    } else if (ts.isCallExpression(node) && node.expression.kind === ts.SyntaxKind.ImportKeyword) {
      const [argument] = node.arguments;
      // A computed specifier cannot be checked: it counts as an import of `?`, which no rule allows.
      const specifier = argument && ts.isStringLiteralLike(argument) ? argument.text : '?';
      add(node, specifier, takenByDynamic(node), true);
    } else if (ts.isImportTypeNode(node) && ts.isLiteralTypeNode(node.argument) && ts.isStringLiteral(node.argument.literal)) {
      // `import('../x/index.js').Name` in a type.
      const first = node.qualifier && (ts.isIdentifier(node.qualifier) ? node.qualifier : leftmost(node.qualifier));
      add(node, node.argument.literal.text, first ? new Set([first.text]) : 'all', true);
    }
    ts.forEachChild(node, visit);
  };
  visit(file);
  return { imports, reExports };
}

function leftmost(name: ts.QualifiedName): ts.Identifier {
  return ts.isIdentifier(name.left) ? name.left : leftmost(name.left);
}

const isExported = (statement: ts.Statement): boolean =>
  ts.canHaveModifiers(statement) && (ts.getModifiers(statement) ?? []).some((modifier) => modifier.kind === ts.SyntaxKind.ExportKeyword);

/** The names a file exports that it declares itself (not those it re-exports from another file). */
function declaredIn(file: ts.SourceFile): Set<string> {
  const names = new Set<string>();
  const addBinding = (name: ts.BindingName): void => {
    if (ts.isIdentifier(name)) names.add(name.text);
    else for (const element of name.elements) if (!ts.isOmittedExpression(element)) addBinding(element.name);
  };
  for (const statement of file.statements) {
    if (ts.isExportDeclaration(statement) && !statement.moduleSpecifier && statement.exportClause && ts.isNamedExports(statement.exportClause)) {
      statement.exportClause.elements.forEach((element) => names.add(element.name.text));
    } else if (!isExported(statement)) continue;
    else if (ts.isVariableStatement(statement)) statement.declarationList.declarations.forEach((declaration) => addBinding(declaration.name));
    else if (
      (ts.isFunctionDeclaration(statement) || ts.isClassDeclaration(statement) || ts.isInterfaceDeclaration(statement)
        || ts.isTypeAliasDeclaration(statement) || ts.isEnumDeclaration(statement)) && statement.name
    ) names.add(statement.name.text);
  }
  return names;
}

/** An expression without the parentheses around it. */
const bare = (node: ts.Expression): ts.Expression => (ts.isParenthesizedExpression(node) ? bare(node.expression) : node);

const isCall = (node: ts.Expression, callee: string, argument: string): boolean =>
  ts.isCallExpression(node) && node.expression.getText() === callee && node.arguments.length === 1 && node.arguments[0]?.getText() === argument;

/**
 * `x instanceof Error ? x.message : String(x)` (lib's errorMessage) and
 * `x instanceof Error ? x : new Error(String(x))` (lib's asError), whatever `x` is called.
 */
function errorIdiomsIn(file: ts.SourceFile): SourceFile['errorIdioms'] {
  const found: SourceFile['errorIdioms'] = [];
  const visit = (node: ts.Node): void => {
    if (ts.isConditionalExpression(node)) {
      const condition = bare(node.condition);
      if (ts.isBinaryExpression(condition) && condition.operatorToken.kind === ts.SyntaxKind.InstanceOfKeyword && condition.right.getText() === 'Error') {
        const thrown = condition.left.getText();
        const whenTrue = bare(node.whenTrue);
        const whenFalse = bare(node.whenFalse);
        const asString = `String(${thrown})`;
        if (ts.isPropertyAccessExpression(whenTrue) && whenTrue.getText() === `${thrown}.message` && isCall(whenFalse, 'String', thrown)) {
          found.push({ line: lineOf(file, node), helper: 'errorMessage' });
        } else if (whenTrue.getText() === thrown && ts.isNewExpression(whenFalse) && whenFalse.expression.getText() === 'Error' && whenFalse.arguments?.[0]?.getText() === asString) {
          found.push({ line: lineOf(file, node), helper: 'asError' });
        }
      }
    }
    ts.forEachChild(node, visit);
  };
  visit(file);
  return found;
}

/** Every source file under src/ (.ts and .tsx), parsed. */
export function readSourceTree(): Map<string, SourceFile> {
  const paths = listSources(SRC);
  const known = new Set(paths);
  const tree = new Map<string, SourceFile>();
  for (const path of paths) {
    const text = readFileSync(join(SRC, path), 'utf8');
    const file = ts.createSourceFile(path, text, ts.ScriptTarget.Latest, true, path.endsWith('.tsx') ? ts.ScriptKind.TSX : ts.ScriptKind.TS);
    const lines = text.split('\n').length - (text.endsWith('\n') ? 1 : 0);
    tree.set(path, { path, lines, declared: declaredIn(file), errorIdioms: errorIdiomsIn(file), ...importsOf(file, path, known) });
  }
  return tree;
}
