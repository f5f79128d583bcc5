import js from '@eslint/js';
import tseslint from 'typescript-eslint';

// `import { z } from 'zod'` is zod's whole namespace as one value, which no bundler can shake:
// the teammate's bundle then carries every locale (600 KB, about 30 ms of its start-up).
// `import * as z` is the same API, and esbuild keeps only what is used.
const zodNamespace = {
  // Types cost the bundle nothing: `import type { ZodType }` stays allowed.
  selector: "ImportDeclaration[source.value='zod'][importKind!='type'] > :matches(ImportSpecifier[importKind!='type'], ImportDefaultSpecifier)",
  message: "Use `import * as z from 'zod'`: the bundle keeps only what is used.",
};

export default tseslint.config(
  { ignores: ['dist/**', 'node_modules/**', '.teams/**'] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    // dependency-cruiser reads its config with require().
    files: ['.dependency-cruiser.cjs'],
    languageOptions: { sourceType: 'commonjs', globals: { module: 'writable' } },
  },
  {
    files: ['bin/**/*.js', 'eslint.config.js'],
    languageOptions: { globals: { process: 'readonly', URL: 'readonly' } },
  },
  {
    // Type-aware rules: a promise nobody awaits loses its error, a switch that forgets a kind
    // compiles. projectService reads tsconfig.json, which covers src/ and test/.
    files: ['**/*.ts', '**/*.tsx'],
    languageOptions: { parserOptions: { projectService: true, tsconfigRootDir: import.meta.dirname } },
    rules: {
      '@typescript-eslint/no-floating-promises': ['error', {
        // node:test awaits what it registers and reports a failure as the test's own.
        allowForKnownSafeCalls: [{ from: 'package', package: 'node:test', name: ['describe', 'it', 'test', 'suite'] }],
      }],
      '@typescript-eslint/no-misused-promises': 'error',
      '@typescript-eslint/switch-exhaustiveness-check': ['error', { requireDefaultForNonUnion: true, allowDefaultCaseForExhaustiveSwitch: false }],
      '@typescript-eslint/no-explicit-any': 'error',
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
      'no-console': 'off',
      'no-restricted-syntax': ['error', zodNamespace],
    },
  },
  // The layer order (the core never imports ink, react or src/ui among it) is
  // .dependency-cruiser.cjs's job, run by `npm run lint` after eslint.
  {
    // Ink writes a string's escape sequences to the terminal as they are: the REPL shows text
    // through components/Text.tsx, which makes it inert.
    files: ['src/ui/**/*.ts', 'src/ui/**/*.tsx'],
    ignores: ['src/ui/components/Text.tsx'],
    rules: {
      'no-restricted-imports': ['error', {
        paths: [{ name: 'ink', importNames: ['Text'], message: 'Use Text from src/ui/components/Text.tsx: it makes agent text inert.' }],
      }],
    },
  },
);
