import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PACKAGE_ROOT as ROOT } from '../../src/lib/package-root.js';


function hashIn(root: string): string {
  const run = spawnSync(process.execPath, ['--input-type=module', '-e', "import('./bin/build-inputs.js').then((m) => process.stdout.write(m.inputsHash()))"], { cwd: root, encoding: 'utf8' });
  assert.equal(run.status, 0, run.stderr);
  return run.stdout;
}

test('npm start builds only when the sources changed: the bundle records the hash of what it was made from', () => {
  // The test command built the bundle just before: a start now would not build again.
  assert.equal(readFileSync(join(ROOT, 'dist/bundle/.inputs'), 'utf8').trim(), hashIn(ROOT));
  const check = spawnSync(process.execPath, ['bin/build-if-changed.js'], { cwd: ROOT, encoding: 'utf8' });
  assert.equal(check.status, 0, check.stderr);
  assert.equal(check.stderr, '', 'nothing built, nothing said');

  // A copy of the inputs: any change to a source's bytes changes the hash; a path's bytes too.
  const copy = mkdtempSync(join(tmpdir(), 'teams-start-'));
  try {
    for (const input of ['src', 'bin', 'package-lock.json', 'tsconfig.json']) cpSync(join(ROOT, input), join(copy, input), { recursive: true });
    const before = hashIn(copy);
    assert.equal(before, hashIn(ROOT), 'the same bytes, the same hash, wherever the checkout is');
    writeFileSync(join(copy, 'src/lib/errno.ts'), `${readFileSync(join(copy, 'src/lib/errno.ts'), 'utf8')}// changed\n`);
    assert.notEqual(hashIn(copy), before);
  } finally {
    rmSync(copy, { recursive: true, force: true });
  }
});
