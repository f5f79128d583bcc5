import { after, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { closeSync, constants, mkdirSync, openSync, readFileSync, readSync, realpathSync, renameSync, symlinkSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { join } from 'node:path';
import { forbiddenDirectories, inParentOf, openRegular, type Walk } from '../../src/tools/beneath.js';
import { realFileIO } from '../../src/tools/files.js';
import { tempHome } from '../helpers/temp.js';

const temp = tempHome('teams-beneath-');
after(() => temp.cleanup());
const root = realpathSync(temp.home);
const elsewhere = join(root, 'elsewhere');
const w = join(root, 'w');
mkdirSync(join(w, 'sub'), { recursive: true });
mkdirSync(join(w, '.teams'));
mkdirSync(elsewhere);
writeFileSync(join(elsewhere, 'secret'), 'secret\n');
execFileSync('mkfifo', [join(w, 'fifo')]);
// We run as root (as CI does): a character device like /dev/null, made inside the working directory.
execFileSync('mknod', [join(w, 'null'), 'c', '1', '3']);
const files = realFileIO(w, [join(w, '.teams')]);

const walk = (path: string, forbidden: Walk['forbidden'] = []): Walk => ({ root: w, parts: path.split('/'), path, forbidden });
const NOT_REGULAR = (path: string, kind: string) => ({ message: `'${path}' is ${kind}, not a regular file; the file tools only read and write regular files` });
const THROUGH_LINK = (path: string, at: string) => ({
  message: `path '${path}' passes through a symbolic link at '${at}' that was not there when the path was checked (a command may be replacing it); nothing was read or written. Try again, or name the link's target`,
});

describe('only regular files are opened, without blocking', () => {
  test('a FIFO is refused for reading and for writing, with or without a reader at the other end', async () => {
    await assert.rejects(files.readText('fifo'), NOT_REGULAR('fifo', 'a FIFO'));
    await assert.rejects(files.writeText('fifo', 'x'), NOT_REGULAR('fifo', 'a FIFO'));
    const reader = openSync(join(w, 'fifo'), constants.O_RDONLY | constants.O_NONBLOCK);
    try {
      await assert.rejects(files.writeText('fifo', 'x'), NOT_REGULAR('fifo', 'a FIFO'));
      assert.equal(readSync(reader, Buffer.alloc(8)), 0, 'nothing was written into the FIFO');
    } finally {
      closeSync(reader);
    }
  });

  test('a device is refused', async () => {
    await assert.rejects(files.readText('null'), NOT_REGULAR('null', 'a device'));
    await assert.rejects(files.writeText('null', 'x'), NOT_REGULAR('null', 'a device'));
  });

  test('a socket is refused', async () => {
    const server = createServer();
    await new Promise<void>((resolve) => server.listen(join(w, 'sock'), resolve));
    try {
      await assert.rejects(files.readText('sock'), NOT_REGULAR('sock', 'a socket'));
      await assert.rejects(files.writeText('sock', 'x'), NOT_REGULAR('sock', 'a socket'));
    } finally {
      await new Promise((resolve) => server.close(resolve));
    }
  });
});

describe('the descriptor walk', () => {
  test('a directory that is a link when the walk reaches it fails the call, naming the path and the link', async () => {
    symlinkSync(elsewhere, join(w, 'link-dir'));
    await assert.rejects(inParentOf(walk('link-dir/secret'), false, async () => 'opened'), THROUGH_LINK('link-dir/secret', 'link-dir'));
    await assert.rejects(inParentOf(walk('link-dir/new/x'), true, async () => 'opened'), THROUGH_LINK('link-dir/new/x', 'link-dir'));
  });

  test('a file that is a link when it is opened is neither read nor written', async () => {
    symlinkSync(join(elsewhere, 'secret'), join(w, 'sub', 'link-file'));
    for (const flags of [constants.O_RDONLY, constants.O_WRONLY, constants.O_WRONLY | constants.O_CREAT | constants.O_EXCL]) {
      const target = walk('sub/link-file');
      await assert.rejects(inParentOf(target, false, (dir, name) => openRegular(dir, name, flags, target)), THROUGH_LINK('sub/link-file', 'sub/link-file'));
    }
    assert.equal(readFileSync(join(elsewhere, 'secret'), 'utf8'), 'secret\n');
  });

  test('a directory swapped for a link after it was opened does not matter: the write lands in the directory held', async () => {
    mkdirSync(join(w, 'held'));
    const target = walk('held/x');
    await inParentOf(target, false, async (dir, name) => {
      renameSync(join(w, 'held'), join(w, 'moved'));
      symlinkSync(elsewhere, join(w, 'held'));
      const file = await openRegular(dir, name, constants.O_WRONLY | constants.O_CREAT | constants.O_EXCL, target);
      await file.writeFile('held\n');
      await file.close();
    });
    assert.equal(readFileSync(join(w, 'moved', 'x'), 'utf8'), 'held\n');
    assert.deepEqual(readFileSync(join(elsewhere, 'secret'), 'utf8'), 'secret\n');
  });

  test("the team's state is refused by the walk itself, by device and inode, whatever the path check said", async () => {
    const refused = new Error('inside the state');
    const forbidden = await forbiddenDirectories([{ dir: join(w, '.teams'), error: () => refused }]);
    assert.equal(forbidden.length, 1);
    await assert.rejects(inParentOf(walk('.teams/x', forbidden), true, async () => 'opened'), refused);
    await assert.rejects(inParentOf(walk('.teams/new/x', forbidden), true, async () => 'opened'), refused);
    await assert.rejects(files.writeText('.teams/x', 'x'), { message: `path '.teams/x' is inside the team's state directory ${join(w, '.teams')}, which tools cannot read or write` });
  });

  test('the working directory itself is not a file', async () => {
    await assert.rejects(files.writeText('.', 'x'), { message: "'.' is a directory, not a file" });
  });
});
