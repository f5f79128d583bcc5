#!/usr/bin/env node
// Thin launcher: the program is bundled into dist/bundle/ by `npm run build` (npm start does it).
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

const entry = new URL('../dist/bundle/cli/main.js', import.meta.url);
if (!existsSync(fileURLToPath(entry))) {
  process.stderr.write('teams: not built yet; run `npm run build` (or `npm start`) first\n');
  process.exit(1);
}
await import(entry.href);
