#!/usr/bin/env node
// Bundles the CLI and the teammate entry into dist/bundle/ (run by `npm run build`).
//
// Every folder of src/ has an index.ts that other folders import it through. esbuild splits
// code by file, so a static import of an index reaches every file it re-exports: the teammate's
// first chunk, which must hold only what "ready" needs, would carry the SDK, the policy and the
// sandbox launcher because the same indexes also re-export them. So, for the bundle only, an
// import through an index is pointed at the files that define the names it takes, as if written
// directly; the index stays the one face the type checker and dependency-cruiser see.
import { build } from 'esbuild';
import { readFileSync, writeFileSync } from 'node:fs';
import { inputsHash, STAMP } from './build-inputs.js';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..');
const SRC = join(ROOT, 'src');

/** name → the file (relative to the index's folder) an index re-exports it from. */
const faces = new Map();
function faceOf(indexFile) {
  if (!faces.has(indexFile)) {
    const names = new Map();
    for (const match of readFileSync(indexFile, 'utf8').matchAll(/^export \{([^}]*)\} from '([^']+)';$/gm)) {
      for (const name of match[1].split(',').map((part) => part.trim()).filter(Boolean)) {
        names.set(name.split(/\s+as\s+/).pop(), { file: match[2], name: name.split(/\s+as\s+/)[0] });
      }
    }
    faces.set(indexFile, names);
  }
  return faces.get(indexFile);
}

const topFolder = (file) => relative(SRC, file).split('/')[0];
/** A folder's public face: src/<folder>/index.ts, or the file backend's own, src/store/file/index.ts. */
const isFace = (file) => /^[^/]+\/index\.ts$|^store\/file\/index\.ts$/.test(relative(SRC, file));

const STATIC_IMPORT = /^import \{([^}]*)\} from '(\.\.?\/[^']*\/index\.js)';$/gms;

/** The source with its value imports through other folders' indexes pointed at the defining files; same line count. */
function direct(source, file) {
  return source.replace(STATIC_IMPORT, (statement, names, spec) => {
    const indexFile = resolve(dirname(file), spec).replace(/\.js$/, '.ts');
    if (!isFace(indexFile) || topFolder(indexFile) === topFolder(file)) return statement;
    const face = faceOf(indexFile);
    const byFile = new Map();
    for (const part of names.split(',').map((entry) => entry.trim()).filter(Boolean)) {
      if (part.startsWith('type ')) continue;
      const [imported, local = imported] = part.split(/\s+as\s+/);
      const target = face.get(imported);
      if (!target) throw new Error(`${relative(ROOT, file)}: ${imported} is not re-exported by ${relative(ROOT, indexFile)}`);
      const from = relative(dirname(file), join(dirname(indexFile), target.file));
      const list = byFile.get(from) ?? [];
      list.push(target.name === local ? local : `${target.name} as ${local}`);
      byFile.set(from, list);
    }
    const lines = [...byFile].map(([from, list]) => `import { ${list.join(', ')} } from '${from.startsWith('.') ? from : `./${from}`}';`);
    return lines.join(' ') + '\n'.repeat(statement.split('\n').length - 1);
  });
}

const directImports = {
  name: 'direct-imports',
  setup(builder) {
    builder.onLoad({ filter: /[/]src[/].*\.tsx?$/ }, (args) => ({
      contents: direct(readFileSync(args.path, 'utf8'), args.path),
      loader: args.path.endsWith('.tsx') ? 'tsx' : 'ts',
    }));
  },
};

// Taken before bundling: a source changed while this runs makes the next start build again.
const inputs = inputsHash();

await build({
  entryPoints: [join(SRC, 'teammate/main.ts'), join(SRC, 'cli/main.ts')],
  outbase: SRC,
  bundle: true,
  platform: 'node',
  format: 'esm',
  target: 'node20.19',
  splitting: true,
  sourcemap: true,
  sourcesContent: false,
  outdir: join(ROOT, 'dist/bundle'),
  external: ['react-devtools-core'],
  define: { 'process.env.NODE_ENV': '"production"' },
  banner: { js: "import { createRequire as bundledCjsRequire } from 'node:module'; const require = bundledCjsRequire(import.meta.url);" },
  logLevel: 'warning',
  plugins: [directImports],
});

writeFileSync(STAMP, `${inputs}\n`);
