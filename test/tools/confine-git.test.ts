import { after, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdirSync, readdirSync, readFileSync, symlinkSync } from 'node:fs';
import { join } from 'node:path';
import { confineWritePath } from '../../src/tools/confine.js';
import { realFileIO } from '../../src/tools/files.js';
import { tempHome } from '../helpers/temp.js';

const temp = tempHome('teams-confine-git-');
after(() => temp.cleanup());
const root = join(temp.home, 'w');
mkdirSync(join(root, '.git/hooks'), { recursive: true });
mkdirSync(join(root, 'src'));
// As another agent's command could swap it in after the policy judged `h/pre-commit`.
symlinkSync(join(root, '.git/hooks'), join(root, 'h'));
symlinkSync(join(root, '.git'), join(root, 'g'));
const files = realFileIO(root);

describe('a write through a symbolic link into .git', () => {
  test('is refused by the file tools, naming where it leads; nothing is written', async () => {
    await assert.rejects(files.writeText('h/pre-commit', '#!/bin/sh\n'), {
      message: "path 'h/pre-commit' leads into a .git directory (.git/hooks/pre-commit) through a symbolic link; name the .git path itself if it must be written",
    });
    await assert.rejects(confineWritePath(root, 'g/config'), /leads into a \.git directory \(\.git\/config\)/);
    assert.deepEqual(readdirSync(join(root, '.git/hooks')), []);
  });

  test('a .git path named as such is written (the policy has asked for it), and so is an ordinary path', async () => {
    assert.deepEqual(await files.writeText('.git/hooks/pre-commit', 'approved\n'), { created: true });
    assert.equal(readFileSync(join(root, '.git/hooks/pre-commit'), 'utf8'), 'approved\n');
    assert.equal(await confineWritePath(root, 'src/a.ts'), join(root, 'src/a.ts'));
  });

  test('reading through the link is not affected', async () => {
    assert.equal(await files.readText('h/pre-commit'), 'approved\n');
  });
});
