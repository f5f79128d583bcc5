import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { bwrapArgs, type SandboxView } from '../../src/sandbox/bwrap-args.js';

/** The mounts bwrapArgs lays after the fixed root, /dev, /proc and /tmp, in order. */
function layered(args: string[]): string[][] {
  const start = args.indexOf('/tmp', args.indexOf('--proc')) + 1;
  const end = args.indexOf('--remount-ro') >= 0 ? args.indexOf('--remount-ro') : args.indexOf('--chdir');
  const mounts: string[][] = [];
  for (let i = start; i < end; ) {
    const flag = args[i] as string;
    const width = flag === '--tmpfs' ? 2 : 3;
    assert.ok(['--tmpfs', '--bind', '--ro-bind'].includes(flag), `a mount flag at ${i}: ${flag}`);
    mounts.push(args.slice(i, i + width));
    i += width;
  }
  return mounts;
}

/** Every `--remount-ro <dir>` pair, in order. */
function remounts(args: string[]): string[] {
  return args.flatMap((arg, i) => (arg === '--remount-ro' ? [args[i + 1] as string] : []));
}

const view = (overrides: Partial<SandboxView> = {}): SandboxView => ({ cwd: '/p/project', writable: true, hidden: ['/p/state'], guarded: [], network: 'on', ...overrides });

describe('bwrapArgs', () => {
  test('is pure: the same view gives the same arguments and the view is left as it was', () => {
    const given = view({ hidden: ['/p/state', '/tmp/teams-0123456789abcdef'] });
    const copy = structuredClone(given);
    assert.deepEqual(bwrapArgs(given, 'ls'), bwrapArgs(given, 'ls'));
    assert.deepEqual(given, copy);
  });

  test('state inside the working directory: the working directory first, then the tmpfs over the state', () => {
    const args = bwrapArgs(view({ cwd: '/w', hidden: ['/w/.teams'] }), 'ls');
    assert.deepEqual(layered(args), [
      ['--bind', '/w', '/w'],
      ['--tmpfs', '/w/.teams'],
    ]);
    assert.deepEqual(remounts(args), ['/w/.teams']);
  });

  test('working directory inside the state: the tmpfs over the state first, then the working directory bound inside it', () => {
    const args = bwrapArgs(view({ cwd: '/s/default/workspace', hidden: ['/s', '/tmp/teams-0123456789abcdef'] }), 'ls');
    assert.deepEqual(layered(args), [
      ['--tmpfs', '/s'],
      ['--tmpfs', '/tmp/teams-0123456789abcdef'],
      ['--bind', '/s/default/workspace', '/s/default/workspace'],
    ]);
    // Read-only only once the working directory's mount point exists inside the tmpfs.
    assert.deepEqual(remounts(args), ['/s', '/tmp/teams-0123456789abcdef']);
  });

  test('apart: both mounted, neither covering the other', () => {
    const args = bwrapArgs(view({ cwd: '/p/project', hidden: ['/p/state'] }), 'ls');
    assert.deepEqual(layered(args), [
      ['--bind', '/p/project', '/p/project'],
      ['--tmpfs', '/p/state'],
    ]);
    assert.deepEqual(remounts(args), ['/p/state']);
  });

  test('the fixed part: whole file system read-only, then /dev, /proc and a private /tmp, before any layered mount', () => {
    const args = bwrapArgs(view(), 'ls');
    const root = args.indexOf('/');
    assert.deepEqual(args.slice(root - 1, root + 2), ['--ro-bind', '/', '/']);
    assert.deepEqual(args.slice(root + 2, root + 8), ['--dev', '/dev', '--proc', '/proc', '--tmpfs', '/tmp']);
    assert.ok(root < args.indexOf('/p/project'));
  });

  test('a /tmp size comes right before the /tmp it bounds; without one, none', () => {
    const sized = bwrapArgs(view({ tmpBytes: 1048576 }), 'ls');
    const tmp = sized.indexOf('/tmp');
    assert.deepEqual(sized.slice(tmp - 3, tmp + 1), ['--size', '1048576', '--tmpfs', '/tmp']);
    assert.ok(!bwrapArgs(view(), 'ls').includes('--size'));
  });

  test('the working directory is bound read-write only when writable', () => {
    assert.deepEqual(layered(bwrapArgs(view({ writable: true }), 'ls'))[0], ['--bind', '/p/project', '/p/project']);
    assert.deepEqual(layered(bwrapArgs(view({ writable: false }), 'ls'))[0], ['--ro-bind', '/p/project', '/p/project']);
    assert.ok(!bwrapArgs(view({ writable: false }), 'ls').includes('--bind'));
  });

  test('--unshare-net only with the network off', () => {
    assert.ok(bwrapArgs(view({ network: 'none' }), 'ls').includes('--unshare-net'));
    assert.ok(!bwrapArgs(view({ network: 'on' }), 'ls').includes('--unshare-net'));
  });

  test('namespaces and privileges: pid and ipc namespaces, a new session, every capability dropped, death with the parent', () => {
    const args = bwrapArgs(view(), 'ls');
    for (const flag of ['--die-with-parent', '--unshare-pid', '--unshare-ipc', '--new-session']) assert.ok(args.includes(flag), flag);
    assert.equal(args[args.indexOf('--cap-drop') + 1], 'ALL');
  });

  test('the hidden directories are remounted read-only after every mount, then the command runs in the working directory', () => {
    const args = bwrapArgs(view({ cwd: '/w', hidden: ['/w/.teams', '/tmp/teams-0123456789abcdef'] }), 'echo "$HOME"; ls');
    const lastMount = Math.max(...['--bind', '--ro-bind', '--tmpfs'].map((flag) => args.lastIndexOf(flag)));
    const firstRemount = args.indexOf('--remount-ro');
    assert.ok(firstRemount > lastMount, 'remount-ro comes after the last mount');
    assert.deepEqual(args.slice(-5), ['--chdir', '/w', '/bin/sh', '-c', 'echo "$HOME"; ls']);
    assert.deepEqual(args.slice(firstRemount, -5), ['--remount-ro', '/w/.teams', '--remount-ro', '/tmp/teams-0123456789abcdef']);
  });

  test('no hidden directory: no tmpfs beyond /tmp and nothing to remount', () => {
    const args = bwrapArgs(view({ hidden: [] }), 'ls');
    assert.deepEqual(layered(args), [['--bind', '/p/project', '/p/project']]);
    assert.deepEqual(remounts(args), []);
  });

  test('relative paths are refused, for the working directory and for a hidden directory', () => {
    assert.throws(() => bwrapArgs(view({ cwd: 'project' }), 'ls'), /sandbox paths must be absolute: 'project'/);
    assert.throws(() => bwrapArgs(view({ hidden: ['/p/state', '.teams'] }), 'ls'), /sandbox paths must be absolute: '\.teams'/);
    assert.throws(() => bwrapArgs(view({ cwd: './p' }), 'ls'), /absolute/);
  });

  test('the git guard comes after every other mount, outermost first, its tmpfs remounted read-only', () => {
    const guarded = [
      { flag: '--ro-bind', target: '/real/p/.git/config' },
      { flag: '--tmpfs', target: '/real/p/.git/hooks' },
      { flag: '--bind', target: '/real/p/.git' },
    ] as const;
    // A working directory given by a link: its real path (the guard's) is shallower than it.
    const args = bwrapArgs(view({ cwd: '/a/b/c/link', hidden: ['/a/b/c/link/.teams'], guarded }), 'ls');
    assert.deepEqual(layered(args), [
      ['--bind', '/a/b/c/link', '/a/b/c/link'],
      ['--tmpfs', '/a/b/c/link/.teams'],
      ['--bind', '/real/p/.git', '/real/p/.git'],
      ['--ro-bind', '/real/p/.git/config', '/real/p/.git/config'],
      ['--tmpfs', '/real/p/.git/hooks'],
    ]);
    assert.deepEqual(remounts(args), ['/a/b/c/link/.teams', '/real/p/.git/hooks']);
  });

  test('a read-only working directory takes no guard: its writable self-binds would undo the read-only mount', () => {
    const args = bwrapArgs(view({ writable: false, guarded: [{ flag: '--bind', target: '/p/project/.git' }] }), 'ls');
    assert.ok(!args.includes('/p/project/.git'));
    assert.ok(!args.includes('--bind'));
  });

  test('a relative guard path is refused', () => {
    assert.throws(() => bwrapArgs(view({ guarded: [{ flag: '--ro-bind', target: '.git/config' }] }), 'ls'), /sandbox paths must be absolute: '\.git\/config'/);
  });
});

describe('bwrapArgs: a working directory that is itself hidden', () => {
  test('is neither covered nor remounted read-only; the other hidden directories still are', () => {
    const args = bwrapArgs({ cwd: '/s/root', writable: true, hidden: ['/s/root', '/s/other'], guarded: [], network: 'none' }, 'ls');
    assert.ok(!args.some((arg, i) => arg === '/s/root' && (args[i - 1] === '--tmpfs' || args[i - 1] === '--remount-ro')), args.join(' '));
    assert.ok(args.join(' ').includes('--tmpfs /s/other'));
  });
});
