import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { appendFileSync, mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { logLineOf, type LoggedEvent } from '../../src/store/agent-log.js';
import { teamPaths } from '../../src/team/paths.js';
import { runCli, startCli } from '../helpers/cli.js';
import { isAlive, killAll } from '../helpers/children.js';
import { filesOf } from '../helpers/store.js';
import { tempHome } from '../helpers/temp.js';
import { waitFor } from '../helpers/wait.js';

after(killAll);

const usage = { input_tokens: 1, output_tokens: 1 };
/** A short session of alice's, as her process logs it; with a crash's line among it. */
const SESSION: (LoggedEvent | string)[] = [
  { type: 'status', status: 'idle' },
  { type: 'input', text: 'task #1: list the files' },
  { type: 'status', status: 'working' },
  { type: 'turn_start', call: 1 },
  { type: 'text_delta', text: 'Let me ' },
  { type: 'text_delta', text: 'look.\n\x1b[2JDone soon.' },
  { type: 'tool_call', id: 't1', name: 'bash', input: { command: 'ls' } },
  { type: 'tool_result', id: 't1', name: 'bash', content: 'a.ts\nb.ts', isError: false },
  { type: 'tool_call', id: 't2', name: 'bash', input: { command: 'rm -rf /' } },
  { type: 'status', status: 'awaiting_approval' },
  { type: 'tool_result', id: 't2', name: 'bash', content: 'denied by the lead', isError: true },
  { type: 'turn_end', stopReason: 'tool_use', usage, text: 'Let me look.', model: 'm' },
  'Error: a crash \x07 in the middle',
  { type: 'idle', reason: 'interrupted', lastText: '' },
  { type: 'status', status: 'idle' },
];
const asLine = (item: LoggedEvent | string) => (typeof item === 'string' ? `${item}\n` : logLineOf(item));

describe('teams logs', () => {
  const { home, cleanup } = tempHome();
  after(cleanup);
  const logs = filesOf(teamPaths(home, 'default')).agentLogs;
  const logOf = (agent: string) => join(logs, `${agent}.log`);

  before(async () => {
    for (const name of ['alice', 'bob', 'carol']) assert.equal((await runCli(home, ['member', 'add', name, '--role', 'coder'])).code, 0);
    mkdirSync(logs, { recursive: true });
    writeFileSync(logOf('alice'), SESSION.map(asLine).join(''));
  });

  test("shows a teammate's session, one inert line per entry", async () => {
    const result = await runCli(home, ['logs', 'alice']);
    assert.equal(result.code, 0, result.stderr);
    assert.equal(result.stderr, '');
    assert.deepEqual(result.stdout.split('\n'), [
      '· alice is idle',
      '» task #1: list the files',
      '· alice is working',
      'Let me look.',
      '\\x1b[2JDone soon.',
      '⚙ bash {"command":"ls"} → a.ts (+1 line)',
      '· alice is awaiting_approval',
      '⚙ bash {"command":"rm -rf /"} → ✗ denied by the lead',
      '│ Error: a crash \\x07 in the middle',
      '■ turn stopped: interrupted',
      '· alice is idle',
      '',
    ]);
  });

  test('--jsonl: each line of the log as one inert JSON object, a line that is no event as raw text', async () => {
    const result = await runCli(home, ['logs', 'alice', '--jsonl']);
    assert.equal(result.code, 0, result.stderr);
    assert.ok(!result.stdout.includes('\x1b') && !result.stdout.includes('\x07'));
    const lines = result.stdout.trim().split('\n').map((line) => JSON.parse(line) as { type: string; at?: string; text?: string });
    assert.deepEqual(lines.map((line) => line.type), SESSION.map((item) => (typeof item === 'string' ? 'raw' : item.type)));
    assert.equal(lines[12]!.text, 'Error: a crash \x07 in the middle');
    assert.ok(lines.filter((line) => line.type !== 'raw').every((line) => typeof line.at === 'string'));
  });

  test('--tail gives the last lines only, and says the start was left out', async () => {
    const result = await runCli(home, ['logs', 'alice', '--tail', '1']);
    assert.equal(result.code, 0, result.stderr);
    assert.equal(result.stdout, '· alice is idle\n');
    assert.match(result.stderr, /the start of alice's log is left out \(--tail\)/);
  });

  test('a member that never started has an empty log: nothing printed, a note, exit 0', async () => {
    const result = await runCli(home, ['logs', 'bob']);
    assert.deepEqual([result.code, result.stdout], [0, '']);
    assert.match(result.stderr, /bob has logged nothing yet/);
  });

  test('an unknown agent, the lead and a bad --tail are usage errors that say why', async () => {
    const unknown = await runCli(home, ['logs', 'alcie']);
    assert.equal(unknown.code, 2);
    assert.match(unknown.stderr, /unknown agent 'alcie': not a member of team 'default'; did you mean 'alice'/);
    const lead = await runCli(home, ['logs', 'lead']);
    assert.equal(lead.code, 2);
    assert.match(lead.stderr, /the lead keeps no such log: its conversation is in the REPL, and its past sessions in `teams sessions`/);
    const tail = await runCli(home, ['logs', 'alice', '--tail', 'lots']);
    assert.equal(tail.code, 2);
    assert.match(tail.stderr, /--tail.*a positive number of lines/);
  });

  test('a removed member\'s log can still be read', async () => {
    assert.equal((await runCli(home, ['member', 'remove', 'carol'])).code, 0);
    writeFileSync(logOf('carol'), logLineOf({ type: 'status', status: 'shutdown' }));
    const result = await runCli(home, ['logs', 'carol']);
    assert.equal(result.code, 0, result.stderr);
    assert.equal(result.stdout, '· carol is shutdown\n');
  });

  test('--follow prints what is appended after it started, text once its block ends, and exits 0 on SIGINT', async () => {
    const follower = startCli(home, ['logs', 'alice', '--follow']);
    await waitFor(() => follower.stdout().includes('turn stopped'), 'what was logged before');
    appendFileSync(logOf('alice'), logLineOf({ type: 'turn_start', call: 2 }) + logLineOf({ type: 'text_delta', text: 'still typ' }));
    appendFileSync(logOf('alice'), logLineOf({ type: 'tool_call', id: 't3', name: 'read_file', input: { path: 'x' } }));
    appendFileSync(logOf('alice'), logLineOf({ type: 'tool_result', id: 't3', name: 'read_file', content: 'contents', isError: false }));
    await waitFor(() => follower.stdout().includes('⚙ read_file {"path":"x"} → contents'), 'the appended call');
    // The text ended where the call began: printed whole, once, before it.
    assert.match(follower.stdout(), /■ turn stopped: interrupted\n· alice is idle\nstill typ\n⚙ read_file/);
    follower.process.kill('SIGINT');
    const exit = await follower.exited;
    assert.equal(exit.code, 0, follower.stderr());
    assert.equal(isAlive(follower.pid), false);
  });
});
