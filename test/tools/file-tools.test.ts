import { after, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { READ_ONLY_GRANT } from '../../src/policy/grant.js';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { formatExec } from '../../src/tools/bash.js';
import { realFileIO } from '../../src/tools/files.js';
import { realShellIO, type ShellIO } from '../../src/tools/shell.js';
import type { TeammateTeamIO } from '../../src/tools/team-io.js';
import { runTool, teammateTools, type TeammateToolIO } from '../../src/tools/toolsets.js';
import { tempHome } from '../helpers/temp.js';

const temp = tempHome('teams-file-tools-');
after(() => temp.cleanup());
const cwd = join(temp.home, 'w');
mkdirSync(cwd);
// The file and shell tools never touch the team.
const noTeam = new Proxy({} as TeammateTeamIO, { get: () => assert.fail('the team was used') });
const io: TeammateToolIO = { files: realFileIO(cwd), shell: realShellIO(), team: noTeam, cwd, grant: READ_ONLY_GRANT };
const tools = teammateTools({ planMode: true });
const run = (name: string, input: unknown) => runTool(tools, name, input, io);
const file = (path: string) => readFileSync(join(cwd, path), 'utf8');

describe('read_file', () => {
  writeFileSync(join(cwd, 'lines.txt'), 'one\ntwo\nthree\nfour\n');

  test('returns the content', async () => assert.deepEqual(await run('read_file', { path: 'lines.txt' }), { content: 'one\ntwo\nthree\nfour\n' }));

  test('limit cuts it, saying how much is left and how to read on', async () => {
    assert.deepEqual(await run('read_file', { path: 'lines.txt', limit: 2 }), {
      content: "one\ntwo\n[… 2 more lines (4 in all); use bash `sed -n '3,2002p' lines.txt` to read on]",
    });
    assert.deepEqual(await run('read_file', { path: 'lines.txt', limit: 4 }), { content: 'one\ntwo\nthree\nfour\n' });
  });

  test('an empty file says so', async () => {
    writeFileSync(join(cwd, 'empty'), '');
    assert.deepEqual(await run('read_file', { path: 'empty' }), { content: '(empty file)' });
  });

  test('errors are results the model can act on', async () => {
    assert.deepEqual(await run('read_file', { path: 'nope.txt' }), { content: "read_file failed: file 'nope.txt' does not exist", isError: true });
    assert.deepEqual(await run('read_file', { path: '../x' }), { content: `read_file failed: path '../x' is outside the working directory ${cwd}`, isError: true });
    assert.deepEqual(await run('read_file', { path: 'lines.txt', limit: 0 }), { content: 'invalid input for read_file: limit: Too small: expected number to be >0', isError: true });
  });
});

describe('write_file', () => {
  test('creates, then replaces', async () => {
    assert.deepEqual(await run('write_file', { path: 'src/new.ts', content: 'é\n' }), { content: 'Created src/new.ts (3 bytes).' });
    assert.deepEqual(await run('write_file', { path: 'src/new.ts', content: '' }), { content: 'Replaced src/new.ts (0 bytes).' });
    assert.equal(file('src/new.ts'), '');
  });

  test('refuses a path outside, writing nothing', async () => {
    const result = await run('write_file', { path: join(temp.home, 'outside.txt'), content: 'x' });
    assert.equal(result.isError, true);
    assert.match(result.content, /is outside the working directory/);
  });
});

describe('edit_file', () => {
  test('replaces text that occurs exactly once', async () => {
    writeFileSync(join(cwd, 'e.ts'), 'a\nconst x = 1;\nb\n');
    assert.deepEqual(await run('edit_file', { path: 'e.ts', old_text: 'const x = 1;', new_text: 'const x = 2;' }), { content: 'Edited e.ts at line 2.' });
    assert.equal(file('e.ts'), 'a\nconst x = 2;\nb\n');
  });

  test('text that is not there is an error that says how to fix it', async () => {
    writeFileSync(join(cwd, 'e.ts'), 'a\n');
    assert.deepEqual(await run('edit_file', { path: 'e.ts', old_text: 'zzz', new_text: 'y' }), {
      content: 'old_text was not found in e.ts; read the file and copy the text exactly, whitespace included.',
      isError: true,
    });
  });

  test('text that occurs more than once is an error naming where, and changes nothing', async () => {
    writeFileSync(join(cwd, 'e.ts'), 'x = 1\ny\nx = 1\n');
    assert.deepEqual(await run('edit_file', { path: 'e.ts', old_text: 'x = 1', new_text: 'x = 2' }), {
      content: 'old_text occurs 2 times in e.ts (at lines 1, 3); include more surrounding text so it occurs once.',
      isError: true,
    });
    assert.equal(file('e.ts'), 'x = 1\ny\nx = 1\n');
  });

  test('replacement text is taken literally, $ patterns included', async () => {
    writeFileSync(join(cwd, 'e.ts'), 'price\n');
    await run('edit_file', { path: 'e.ts', old_text: 'price', new_text: "$& costs $1 and $'" });
    assert.equal(file('e.ts'), "$& costs $1 and $'\n");
  });

  test('empty old_text is invalid input', async () => {
    assert.deepEqual(await run('edit_file', { path: 'e.ts', old_text: '', new_text: 'x' }), { content: 'invalid input for edit_file: old_text: old_text is empty', isError: true });
  });
});

describe('bash', () => {
  test('runs in the working directory and returns the output', async () => {
    assert.deepEqual(await run('bash', { command: 'pwd' }), { content: cwd });
  });

  test('a failing command shows stderr and the exit code as an error', async () => {
    assert.deepEqual(await run('bash', { command: 'echo out; echo err >&2; exit 2' }), { content: 'out\n[stderr]\nerr\n[exit code 2]', isError: true });
  });

  test('silence is said', async () => assert.deepEqual(await run('bash', { command: 'true' }), { content: '(no output)' }));

  test('the interruption signal reaches the shell', async () => {
    let seen: AbortSignal | undefined;
    const shell: ShellIO = { exec: async (_command, options) => ((seen = options.signal), { stdout: '', stderr: '', exitCode: null, timedOut: false, aborted: true, truncated: false }) };
    const signal = AbortSignal.abort();
    const result = await runTool(tools, 'bash', { command: 'sleep 9' }, { ...io, shell }, signal);
    assert.equal(seen, signal);
    assert.deepEqual(result, { content: '[interrupted: the command and everything it started were killed]', isError: true });
  });

  test('timeouts and kills are errors with the output so far', () => {
    const base = { stdout: 'partial\n', stderr: '', exitCode: null, aborted: false, truncated: false };
    assert.deepEqual(formatExec({ ...base, timedOut: true }), { content: 'partial\n[timed out: the command and everything it started were killed]', isError: true });
    assert.deepEqual(formatExec({ ...base, timedOut: false }), { content: 'partial\n[killed by a signal]', isError: true });
  });
});
