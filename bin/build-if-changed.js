#!/usr/bin/env node
// `npm start`'s first step: build only when the sources changed since the bundle was made
// (a full build type-checks and takes half a minute; a start with nothing changed should not).
import { spawnSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { inputsHash, ROOT, STAMP } from './build-inputs.js';

const recorded = existsSync(STAMP) ? readFileSync(STAMP, 'utf8').trim() : '';
if (recorded !== '' && recorded === inputsHash()) process.exit(0);
process.stderr.write(recorded === '' ? 'teams: building (first start)…\n' : 'teams: sources changed, building…\n');
const built = spawnSync('npm', ['run', 'build', '--silent'], { cwd: ROOT, stdio: 'inherit' });
process.exit(built.status ?? 1);
