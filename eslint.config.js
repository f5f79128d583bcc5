import js from '@eslint/js';
import tseslint from 'typescript-eslint';

export default tseslint.config(
  { ignores: ['dist/**', 'node_modules/**', '.teams/**'] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    files: ['bin/**/*.js', 'eslint.config.js'],
    languageOptions: { globals: { process: 'readonly', URL: 'readonly' } },
  },
  {
    files: ['**/*.ts', '**/*.tsx'],
    rules: {
      '@typescript-eslint/no-explicit-any': 'error',
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
      'no-console': 'off',
    },
  },
  {
    // The core never imports the UI libraries: only src/ui renders.
    files: ['src/**/*.ts', 'src/**/*.tsx'],
    ignores: ['src/ui/**'],
    rules: {
      'no-restricted-imports': ['error', {
        paths: [
          { name: 'ink', message: 'Only src/ui may import ink.' },
          { name: 'react', message: 'Only src/ui may import react.' },
        ],
        patterns: [{ group: ['**/ui/**', 'ink-*'], message: 'The core must not depend on the UI.' }],
      }],
    },
  },
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
