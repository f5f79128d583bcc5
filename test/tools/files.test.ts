import { after, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdirSync, readFileSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { confinePath, realRelativePath } from '../../src/tools/confine.js';
import { realFileIO } from '../../src/tools/files.js';
import { tempHome } from '../helpers/temp.js';

const temp = tempHome('teams-files-');
after(() => temp.cleanup());
const root = join(temp.home, 'w');
const elsewhere = join(temp.home, 'elsewhere');
mkdirSync(join(root, 'src'), { recursive: true });
mkdirSync(elsewhere);
writeFileSync(join(root, 'src/a.ts'), 'export const a = 1;\n');
writeFileSync(join(elsewhere, 'secret'), 'secret\n');
symlinkSync(elsewhere, join(root, 'out-dir'));
symlinkSync(join(elsewhere, 'secret'), join(root, 'out-file'));
symlinkSync(join(root, 'src'), join(root, 'in-dir'));
symlinkSync(join(elsewhere, 'nothing-yet'), join(root, 'dangling'));
const files = realFileIO(root);

describe('confinePath', () => {
  for (const [path, resolved] of [
    ['src/a.ts', 'src/a.ts'],
    ['./src/../src/a.ts', 'src/a.ts'],
    ['new/dir/file.ts', 'new/dir/file.ts'],
    ['in-dir/a.ts', 'in-dir/a.ts'],
    ['.', ''],
  ] as const) {
    test(`'${path}' is inside`, async () => assert.equal(await confinePath(root, path), join(root, resolved)));
  }

  test('an absolute path inside is accepted', async () => assert.equal(await confinePath(root, join(root, 'src/a.ts')), join(root, 'src/a.ts')));

  for (const path of ['../x', 'src/../../x', '..', '/etc/passwd']) {
    test(`'${path}' is refused`, async () => {
      await assert.rejects(confinePath(root, path), { message: `path '${path}' is outside the working directory ${root}` });
    });
  }

  test('a sibling directory sharing the prefix is outside', async () => {
    await assert.rejects(confinePath(root, `${root}-other/x`), /is outside the working directory/);
  });

  for (const path of ['out-dir/secret', 'out-dir/new-file', 'out-file']) {
    test(`'${path}' escapes through a symbolic link and is refused`, async () => {
      await assert.rejects(confinePath(root, path), {
        message: new RegExp(`^path '${path}' is outside the working directory ${root} \\(through a symbolic link to ${elsewhere}`),
      });
    });
  }

  test('a symbolic link to nothing is refused: writing through it would create its target', async () => {
    await assert.rejects(confinePath(root, 'dangling'), { message: "path 'dangling' is a symbolic link to a file that does not exist" });
  });

  test('an empty path is refused', async () => assert.rejects(confinePath(root, ' '), { message: 'path is empty' }));
});

describe('realFileIO', () => {
  test('reads and writes text, creating directories, and says whether the file is new', async () => {
    assert.equal(await files.readText('src/a.ts'), 'export const a = 1;\n');
    assert.deepEqual(await files.writeText('deep/er/b.txt', 'b'), { created: true });
    assert.deepEqual(await files.writeText('deep/er/b.txt', 'bb'), { created: false });
    assert.equal(readFileSync(join(root, 'deep/er/b.txt'), 'utf8'), 'bb');
  });

  test('errors say what is wrong with the path', async () => {
    await assert.rejects(files.readText('missing.ts'), { message: "file 'missing.ts' does not exist" });
    await assert.rejects(files.readText('src'), { message: "'src' is a directory, not a file" });
    await assert.rejects(files.writeText('src', 'x'), { message: "'src' is a directory, not a file" });
    await assert.rejects(files.writeText('src/a.ts/x', 'x'), { message: "'src/a.ts/x': a parent of it is a file, not a directory" });
    writeFileSync(join(root, 'bin.dat'), Buffer.from([1, 0, 2]));
    await assert.rejects(files.readText('bin.dat'), { message: "file 'bin.dat' is binary (3 bytes), not text" });
  });

  test('nothing outside is read or written', async () => {
    await assert.rejects(files.readText('out-file'), /outside the working directory/);
    await assert.rejects(files.writeText('../escaped', 'x'), /outside the working directory/);
    await assert.rejects(files.writeText('out-dir/new', 'x'), /through a symbolic link/);
    assert.equal(readFileSync(join(elsewhere, 'secret'), 'utf8'), 'secret\n');
  });
});

describe('realRelativePath (what the permission rules judge)', () => {
  const { home: root, cleanup } = tempHome('teams-real-path-');
  after(cleanup);
  mkdirSync(join(root, '.git', 'hooks'), { recursive: true });
  mkdirSync(join(root, 'src'), { recursive: true });
  symlinkSync(join(root, '.git', 'hooks'), join(root, 'src', 'h'));
  symlinkSync('/etc', join(root, 'src', 'out'));

  test('a plain path is itself; one through a link is where the link leads', async () => {
    assert.equal(await realRelativePath(root, 'src/new/a.ts'), 'src/new/a.ts');
    assert.equal(await realRelativePath(root, 'src/h/pre-commit'), '.git/hooks/pre-commit');
  });
  test('a path leading outside has none', async () => {
    assert.equal(await realRelativePath(root, 'src/out/passwd'), undefined);
    assert.equal(await realRelativePath(root, '../x'), undefined);
  });
});
