import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { openFileStore } from '../../src/store/file/file-store.js';
import { teamPaths, type TeamPaths } from '../../src/team/paths.js';
import { submitOp } from '../../src/lead/submit.js';
import { LEAD } from '../../src/protocol/names.js';
import { Refused } from '../../src/lib/refused.js';
import { helpText, isRunnable, runCommand } from '../../src/ui/command-runner.js';
import { COMMAND_NAMES, isCommandLine, parseCommand, type SlashCommand } from '../../src/ui/commands.js';
import { compactTarget } from '../../src/ui/compact-target.js';
import type { ReplRuntime } from '../../src/ui/runtime.js';
import { tempHome } from '../helpers/temp.js';
import { addProjectRule, loadProjectRules, settingsPath } from '../../src/lead/project-settings.js';
import { showRule } from '../../src/policy/rules.js';
import { addMember } from '../../src/store/roster-changes.js';

function parsed(line: string): SlashCommand {
  const result = parseCommand(line);
  assert.ok(result.ok, `${line}: ${result.ok ? '' : result.error}`);
  return result.command;
}

function refused(line: string, pattern: RegExp): void {
  const result = parseCommand(line);
  assert.ok(!result.ok, `${line} should be refused`);
  assert.match(result.error, pattern, line);
  assert.doesNotMatch(result.error, /\n/, 'one line');
}

describe('slash commands: parsing', () => {
  test('the commands without arguments', () => {
    for (const name of ['help', 'team', 'requests', 'clear', 'quit'] as const) assert.deepEqual(parsed(`/${name}`), { name });
    assert.deepEqual(parsed('  /HELP  '), { name: 'help' }, 'case and spacing do not matter');
  });

  test('/spawn: name, role, the prompt as typed, --plan-mode anywhere', () => {
    assert.deepEqual(parsed('/spawn alice coder'), { name: 'spawn', member: 'alice', role: 'coder', prompt: '', planMode: false });
    assert.deepEqual(parsed('/spawn alice coder Write  the notes --plan-mode'), { name: 'spawn', member: 'alice', role: 'coder', prompt: 'Write  the notes', planMode: true });
    assert.deepEqual(parsed('/spawn --plan-mode bob tester "check -v output"'), { name: 'spawn', member: 'bob', role: 'tester', prompt: 'check -v output', planMode: true });
  });

  test('/spawn --agent <agent>: the definition names the role, so what follows the name is the prompt', () => {
    assert.deepEqual(parsed('/spawn rex --agent reviewer Review src/ for bugs'), { name: 'spawn', member: 'rex', agent: 'reviewer', prompt: 'Review src/ for bugs', planMode: false });
    assert.deepEqual(parsed('/spawn --agent=reviewer rex --worktree'), { name: 'spawn', member: 'rex', agent: 'reviewer', prompt: '', planMode: false, worktree: true });
    refused('/spawn rex --agent', /^\/spawn: --agent needs the name of an agent definition/);
    refused('/spawn rex --agent Bad!Name', /^\/spawn: agent 'Bad!Name'/);
    refused('/spawn --agent reviewer', /^usage: \/spawn/);
  });

  test('/spawn --host <host> anywhere places it on a host; a missing or bad host name is refused', () => {
    assert.deepEqual(parsed('/spawn alice coder run the tests --host build'), { name: 'spawn', member: 'alice', role: 'coder', prompt: 'run the tests', planMode: false, host: 'build' });
    assert.deepEqual(parsed('/spawn --host=gpu bob tester'), { name: 'spawn', member: 'bob', role: 'tester', prompt: '', planMode: false, host: 'gpu' });
    refused('/spawn alice coder --host', /--host needs a host name/);
    refused('/spawn alice coder --host Bad!Name', /host/);
  });

  test('/spawn --worktree anywhere; /diff, /merge and /discard name one teammate', () => {
    assert.deepEqual(parsed('/spawn alice coder --worktree Write the notes'), { name: 'spawn', member: 'alice', role: 'coder', prompt: 'Write the notes', planMode: false, worktree: true });
    assert.deepEqual(parsed('/spawn alice coder use --worktrees'), { name: 'spawn', member: 'alice', role: 'coder', prompt: 'use --worktrees', planMode: false });
    for (const name of ['diff', 'merge', 'discard'] as const) {
      assert.deepEqual(parsed(`/${name} alice`), { name, member: 'alice' });
      refused(`/${name}`, new RegExp(`usage: /${name} <name>`));
      refused(`/${name} alice bob`, new RegExp(`usage: /${name} <name>`));
      refused(`/${name} Alice`, /teammate 'Alice'/);
    }
  });

  test('/spawn --model <id> (or --model=<id>) anywhere; a missing or malformed id is refused', () => {
    assert.deepEqual(parsed('/spawn alice coder --model claude-haiku-4-5 Write the notes'), { name: 'spawn', member: 'alice', role: 'coder', prompt: 'Write the notes', planMode: false, model: 'claude-haiku-4-5' });
    assert.deepEqual(parsed('/spawn --model=claude-opus-5 bob tester --plan-mode'), { name: 'spawn', member: 'bob', role: 'tester', prompt: '', planMode: true, model: 'claude-opus-5' });
    refused('/spawn alice coder --model', /^\/spawn: --model needs a model id/);
    refused('/spawn alice coder --model --plan-mode', /^\/spawn: --model needs a model id/);
    refused('/spawn alice coder --model=', /^\/spawn: --model needs a model id/);
    refused('/spawn alice coder --model claude!haiku', /^\/spawn: invalid model id 'claude!haiku': must be a model id such as claude-sonnet-5-5$/);
  });

  test('/spawn --mode <mode> anywhere; /mode <name> <mode>; an unknown mode is refused by name', () => {
    assert.deepEqual(parsed('/spawn alice coder --mode accept-edits Write it'), { name: 'spawn', member: 'alice', role: 'coder', prompt: 'Write it', planMode: false, mode: 'accept-edits' });
    assert.deepEqual(parsed('/spawn --mode=bypass bob tester'), { name: 'spawn', member: 'bob', role: 'tester', prompt: '', planMode: false, mode: 'bypass' });
    refused('/spawn alice coder --mode root', /^\/spawn: --mode needs one of plan, default, accept-edits, bypass$/);
    refused('/spawn alice coder --mode', /^\/spawn: --mode needs one of/);
    assert.deepEqual(parsed('/mode alice plan'), { name: 'mode', member: 'alice', mode: 'plan' });
    refused('/mode alice root', /^\/mode: unknown mode 'root': use one of plan, default, accept-edits, bypass$/);
    refused('/mode alice', /^usage: \/mode <name>/);
    refused('/mode alice plan now', /^usage: \/mode <name>/);
    refused('/mode Alice plan', /^\/mode: teammate 'Alice'/);
  });

  test('/send and /broadcast keep the text, quotes removed', () => {
    assert.deepEqual(parsed('/send bob hi   there'), { name: 'send', to: 'bob', text: 'hi   there' });
    assert.deepEqual(parsed('/send bob "hi there"'), { name: 'send', to: 'bob', text: 'hi there' });
    assert.deepEqual(parsed('/broadcast stand up in 5'), { name: 'broadcast', text: 'stand up in 5' });
  });

  test('/inbox and /log take an optional agent', () => {
    assert.deepEqual(parsed('/inbox'), { name: 'inbox', agent: undefined });
    assert.deepEqual(parsed('/inbox alice'), { name: 'inbox', agent: 'alice' });
    assert.deepEqual(parsed('/log'), { name: 'log', agent: undefined });
    assert.deepEqual(parsed('/log bob'), { name: 'log', agent: 'bob' });
  });

  test('/approve with optional feedback, /reject with a reason, /shutdown with an optional reason', () => {
    assert.deepEqual(parsed('/approve plan-123'), { name: 'approve', requestId: 'plan-123', feedback: undefined });
    assert.deepEqual(parsed('/approve plan-123 go ahead'), { name: 'approve', requestId: 'plan-123', feedback: 'go ahead' });
    assert.deepEqual(parsed("/reject perm-1 'not in prod'"), { name: 'reject', requestId: 'perm-1', reason: 'not in prod' });
    assert.deepEqual(parsed('/shutdown alice'), { name: 'shutdown', member: 'alice', reason: undefined });
    assert.deepEqual(parsed('/respawn alice'), { name: 'respawn', member: 'alice' });
    assert.deepEqual(parsed('/shutdown alice work is done'), { name: 'shutdown', member: 'alice', reason: 'work is done' });
  });

  test('bad lines: one-line errors, never a throw', () => {
    refused('/frobnicate', /unknown command '\/frobnicate'.*\/help/);
    refused('/spwan alice coder', /did you mean \/spawn\?/);
    refused('/', /unknown command/);
    refused('/help me', /takes no arguments/);
    refused('/quit now', /takes no arguments/);
    // Claude Code's word for it.
    assert.deepEqual(parsed('/exit'), { name: 'quit' });
    refused('/exit now', /takes no arguments/);
    refused('/spawn alice', /usage: \/spawn <name> <role>/);
    refused('/spawn Alice coder', /name 'Alice'/);
    refused('/spawn alice --role coder', /unknown option '--role'/);
    refused('/send bob', /usage: \/send <name> <text>/);
    refused('/send', /usage/);
    refused('/send Bob! hi', /recipient 'Bob!'/);
    refused('/broadcast', /usage/);
    refused('/approve', /usage: \/approve <id>/);
    refused('/reject perm-1', /a rejection says why/);
    refused('/shutdown', /usage/);
    refused('/respawn', /usage: \/respawn <name>/);
    refused('/respawn alice now', /usage: \/respawn <name>/);
    refused('/respawn Alice', /teammate 'Alice'/);
    refused('/inbox alice bob', /usage: \/inbox/);
    refused('/log ../etc', /agent '..\/etc'/);
  });

  test('/compact: the lead by default, or one member', () => {
    assert.deepEqual(parsed('/compact'), { name: 'compact', agent: undefined });
    assert.deepEqual(parsed('/compact alice'), { name: 'compact', agent: 'alice' });
    assert.deepEqual(parsed('/compact alice keep the test output'), { name: 'compact', agent: 'alice', instructions: 'keep the test output' });
    refused('/compact ../x', /agent '..\/x'/);
    // With instructions, the first word is an agent only if it is a member (Claude Code's `/compact <instructions>`).
    const members = ['lead', 'alice'];
    const target = (line: string) => {
      const command = parsed(line);
      assert.equal(command.name, 'compact');
      return command.name === 'compact' ? compactTarget(command, members) : undefined;
    };
    assert.deepEqual(target('/compact'), {});
    assert.deepEqual(target('/compact alice'), { name: 'alice' });
    assert.deepEqual(target('/compact alice keep the test output'), { name: 'alice', instructions: 'keep the test output' });
    assert.deepEqual(target('/compact keep the test output'), { instructions: 'keep the test output' });
  });

  test('/permissions: alone it lists; remove takes a rule (checked by the parser) or a number', () => {
    assert.deepEqual(parsed('/permissions'), { name: 'permissions', remove: undefined });
    assert.deepEqual(parsed('/permissions remove bash(npm test*)'), { name: 'permissions', remove: 'bash(npm test*)' });
    assert.deepEqual(parsed('/permissions remove Bash(npm test:*)'), { name: 'permissions', remove: 'Bash(npm test:*)' });
    assert.deepEqual(parsed("/permissions remove 'bash(npm test*)'"), { name: 'permissions', remove: 'bash(npm test*)' });
    assert.deepEqual(parsed('/permissions remove 2'), { name: 'permissions', remove: '2' });
    refused('/permissions remove', /^usage: \/permissions \[remove <rule\|number>\]$/);
    refused('/permissions drop 1', /^usage: \/permissions/);
    refused('/permissions remove bash(npm', /^\/permissions: invalid rule: unbalanced parentheses in 'bash\(npm'$/);
    refused('/permissions remove shell', /^\/permissions: invalid rule: unknown tool 'shell'/);
  });

  test('/view takes one agent, or none for the lead', () => {
    assert.deepEqual(parsed('/view alice'), { name: 'view', agent: 'alice' });
    assert.deepEqual(parsed('/view'), { name: 'view', agent: undefined });
    refused('/view alice bob', /^usage: \/view \[name\]$/);
    refused('/view Alice!', /^\/view: agent 'Alice!'/);
  });

  test('/task add: the subject as typed (quoted or not), --blocked-by anywhere', () => {
    assert.deepEqual(parsed('/task add Write the tokenizer'), { name: 'task', action: 'add', subject: 'Write the tokenizer', blockedBy: [] });
    assert.deepEqual(parsed('/task add "Test it, with -v" --blocked-by 1,2'), { name: 'task', action: 'add', subject: 'Test it, with -v', blockedBy: ['1', '2'] });
    assert.deepEqual(parsed('/task add --blocked-by=3 Release  it'), { name: 'task', action: 'add', subject: 'Release  it', blockedBy: ['3'] });
    assert.deepEqual(parsed('/task ADD Docs --blocked-by 1, 2,3 ,4'), { name: 'task', action: 'add', subject: 'Docs', blockedBy: ['1', '2', '3', '4'] });
    assert.deepEqual(parsed('/task add Docs --blocked-by 1, 2 first'), { name: 'task', action: 'add', subject: 'Docs first', blockedBy: ['1', '2'] });
    assert.deepEqual(parsed('/task add fix the --blocked-by-x flag'), { name: 'task', action: 'add', subject: 'fix the --blocked-by-x flag', blockedBy: [] });
  });

  test('/task assign <id> <name> and /task cancel <id>', () => {
    assert.deepEqual(parsed('/task assign 7 alice'), { name: 'task', action: 'assign', id: '7', member: 'alice' });
    assert.deepEqual(parsed('/task cancel 12'), { name: 'task', action: 'cancel', id: '12' });
  });

  test('/task: bad input gets a specific one-line error', () => {
    refused('/task', /^usage: \/task add <subject> \[--blocked-by id,…\] \| assign <id> <name> \| cancel <id>$/);
    refused('/task list', /^\/task: unknown action 'list': add, assign or cancel/);
    refused('/task add', /^\/task: the subject is empty \(usage: \/task add <subject>/);
    refused('/task add ""', /^\/task: the subject is empty/);
    refused('/task add --blocked-by 1', /^\/task: the subject is empty/);
    refused('/task add x --blocked-by', /^\/task: --blocked-by needs task ids, e\.g\. --blocked-by 1,2$/);
    refused('/task add x --blocked-by 1,zz', /^\/task: 'zz' is not a task id \(a number such as 7; see \/tasks\)$/);
    refused('/task add x --blocked-by 1 --blocked-by 2', /^\/task: give --blocked-by once/);
    refused('/task add --assign bob x', /^\/task: unknown option '--assign' \(only --blocked-by <ids>\)$/);
    refused('/task assign 7', /^usage: \/task assign <id> <name>$/);
    refused('/task assign 7 alice bob', /^usage: \/task assign <id> <name>$/);
    refused('/task assign seven alice', /^\/task: 'seven' is not a task id \(a number such as 7; see \/tasks\)$/);
    refused('/task assign 07 alice', /'07' is not a task id/);
    refused('/task assign 7 lead', /^\/task: tasks are assigned to teammates, not to the lead$/);
    refused('/task assign 7 Alice!', /^\/task: teammate 'Alice!'/);
    refused('/task cancel', /^usage: \/task cancel <id>$/);
    refused('/task cancel 1 2', /^usage: \/task cancel <id>$/);
    refused('/task cancel #3', /^\/task: '#3' is not a task id/);
  });

  test('/cost, /status, /clear take no arguments; /model shows, or sets a checked id', () => {
    assert.deepEqual(parsed('/cost'), { name: 'cost' });
    assert.deepEqual(parsed('/status'), { name: 'status' });
    assert.deepEqual(parsed('/clear'), { name: 'clear' });
    assert.deepEqual(parsed('/model'), { name: 'model_shown' });
    assert.deepEqual(parsed('/model claude-haiku-4-5'), { name: 'model', model: 'claude-haiku-4-5' });
    refused('/cost now', /^\/cost takes no arguments$/);
    refused('/model a b', /^usage: \/model \[id\]$/);
    refused('/model -x', /^\/model: invalid model id/);
  });

  test('command lines start with /; completion and /help know every command', () => {
    assert.equal(isCommandLine('  /team'), true);
    assert.equal(isCommandLine('hello /team'), false);
    assert.equal(COMMAND_NAMES.length, 32);
    for (const name of COMMAND_NAMES) assert.match(helpText(), new RegExp(`/${name}\\b`));
    assert.match(helpText(), /Tab/);
  });
});

describe('slash commands: running', () => {
  const { home, cleanup } = tempHome('teams-ui-commands-');
  after(cleanup);
  const store = openFileStore(teamPaths(home, 'default'));
  before(() => store.roster.ensure());

  const failing = (message: string) => async (): Promise<never> => {
    throw new Refused(message);
  };
  const compacted: string[] = [];
  // The REPL's ops go through the real submitOp, onto a lead whose every part refuses.
  const withPaths = (paths: TeamPaths | undefined): ReplRuntime => ({
    events: { subscribe: () => () => undefined },
    submit: (op) =>
      submitOp(op, {
        store,
        paths,
        bus: { send: failing('no member named bob') },
        decisions: { decide: failing("request 'x' is not pending (approved)"), sweep: async () => undefined, pendingForHuman: async () => [] },
        teammates: { spawn: failing('alice is already running'), requestShutdown: failing('bob is not running'), respawn: failing('alice is running: only a teammate that crashed or was shut down can be respawned'), setMode: failing('carol is not running'), tell: failing("no teammate 'bob' in team 'default'"), interrupt: failing('bob is not running'), compact: (name) => void compacted.push(name) },
        loop: { busy: false, interrupt: () => undefined, compact: () => void compacted.push(LEAD), push: () => undefined },
        lead: { setMode: failing('not here'), setModel: failing('not here'), clear: failing('not here'), resume: failing('not here') },
        stop: async () => undefined,
        forceStop: async () => undefined,
      }),
    snapshot: async () => ({ busy: false, mode: 'default', pending: [] }),
    model: { label: 'offline-demo' },
    sandbox: { kind: 'off' },
    options: { cwd: home, settings: { model: 'offline-demo', offline: true }, ...(paths ? { paths } : {}) },
    store,
  });
  const runtime = withPaths(undefined);

  test('/doctor: what teams doctor says, in the transcript (the sandbox, its bounds, the team, the state roots hidden)', async () => {
    assert.deepEqual(parsed('/doctor'), { name: 'doctor' });
    const [item] = await runCommand({ name: 'doctor' }, withPaths(teamPaths(home, 'default')));
    assert.equal(item?.kind, 'output');
    const text = item && 'text' in item ? item.text : '';
    assert.match(text, /^node {20}v20\./m);
    assert.match(text, /^sandbox {17}active: /m);
    assert.match(text, /^team {20}default /m);
    assert.match(text, /^state roots hidden/m);
    refused('/doctor now', /^\/doctor takes no arguments$/);
  });

  test('/resume alone lists the lead\'s sessions; /resume <n|id> names one; more is refused', () => {
    assert.deepEqual(parsed('/resume'), { name: 'resume_list' });
    assert.deepEqual(parsed('/resume 2'), { name: 'resume', session: '2' });
    assert.deepEqual(parsed('/resume session-abcdefghij'), { name: 'resume', session: 'session-abcdefghij' });
    refused('/resume 1 2', /^usage: \/resume \[n\|id\]$/);
  });

  test('a refused action is one error line naming the command', async () => {
    const cases: [string, RegExp][] = [
      ['/spawn alice coder', /^\/spawn: alice is already running$/],
      ['/send bob hi', /^\/send: no teammate 'bob' in team 'default'$/],
      ['/approve x', /^\/approve: request 'x' is not pending/],
      ['/shutdown bob', /^\/shutdown: bob is not running$/],
      ['/respawn alice', /^\/respawn: alice is running: only a teammate that crashed/],
      ['/inbox zed', /^\/inbox: no member named 'zed'/],
      ['/log zed', /^\/log: no member named 'zed'/],
      ['/compact zed', /^\/compact: no member named 'zed'/],
    ];
    for (const [line, pattern] of cases) {
      const command = parsed(line);
      assert.ok(isRunnable(command));
      const items = await runCommand(command, runtime);
      assert.equal(items.length, 1);
      assert.equal(items[0]?.kind, 'error', line);
      assert.match(items[0]?.kind === 'error' ? items[0].text : '', pattern, line);
    }
  });

  test('reading commands answer from the team state', async () => {
    const answer = async (line: string) => {
      const command = parsed(line);
      assert.ok(isRunnable(command));
      const [item] = await runCommand(command, runtime);
      return item?.kind === 'output' ? item.text : `(${item?.kind}) ${JSON.stringify(item)}`;
    };
    assert.match(await answer('/team'), /NAME\s+ROLE\s+STATUS[\s\S]*lead/);
    assert.equal(await answer('/inbox'), 'no unread messages for lead');
    assert.equal(await answer('/requests'), 'no requests');
    assert.equal(await answer('/tasks'), 'the task board is empty');
    await store.tasks.create({ subject: 'Write the tokenizer', description: 'here-documents too' }, 'lead');
    await store.tasks.create({ subject: 'Test it', description: '', blocked_by: ['1'] }, 'lead');
    assert.equal(await answer('/tasks'), '#1 [pending]: Write the tokenizer\n  here-documents too\n#2 [pending] blocked by 1: Test it');
    assert.match(await answer('/log'), /member\s+lead|the audit log is empty/);
    assert.match(await answer('/help'), /Commands:/);
  });

  test('/task adds, assigns and cancels on the board as the lead, each answered with the task\'s line', async () => {
    await addMember(store.roster, { name: 'alice', role: 'coder' });
    const run = async (line: string) => {
      const command = parsed(line);
      assert.ok(command.name === 'task');
      const items = await runCommand(command, runtime);
      assert.equal(items.length, 1, line);
      return `${items[0]?.kind}: ${items[0] && 'text' in items[0] ? items[0].text : ''}`;
    };
    const before = (await store.tasks.list()).length;
    const id = String(before + 1);
    assert.equal(await run('/task add Write the docs'), `info: added to the board: #${id} [pending]: Write the docs`);
    assert.equal(await run(`/task add "Publish them" --blocked-by ${id}`), `info: added to the board: #${before + 2} [pending] blocked by ${id}: Publish them`);
    assert.equal(await run(`/task assign ${id} alice`), `info: assigned to alice: #${id} [pending] @alice: Write the docs`);
    assert.equal(await run(`/task cancel ${before + 2}`), `info: cancelled: #${before + 2} [cancelled] blocked by ${id}: Publish them`);
    const [added, cancelled] = [await store.tasks.get(id), await store.tasks.get(String(before + 2))];
    assert.deepEqual([added?.created_by, added?.owner, cancelled?.notes?.[0]?.text], ['human', 'alice', 'cancelled by the user in the REPL']);

    const journal = JSON.stringify(await store.tasks.list());
    const refusals: [string, RegExp][] = [
      ['/task assign 99 alice', /^error: \/task: unknown task 99$/],
      [`/task assign ${id} bob`, /^error: \/task: no member named 'bob' in team 'default'/],
      [`/task cancel ${before + 2}`, new RegExp(`^error: /task: task ${before + 2} is already cancelled$`)],
      ['/task add Loop --blocked-by 99', /^error: \/task: cannot create task: task \d+ cannot be blocked by unknown task 99$/],
      [`/task add ${'x'.repeat(201)}`, /^error: \/task: cannot create task: .*subject/],
    ];
    for (const [line, pattern] of refusals) assert.match(await run(line), pattern, line);
    assert.equal(JSON.stringify(await store.tasks.list()), journal, 'a refusal changes nothing on the board');
    await store.tasks.update(id, { op: 'claim' }, 'alice');
    assert.match(await run(`/task assign ${id} alice`), new RegExp(`^error: /task: task ${id} is in_progress: only a pending task can be \\(re\\)assigned$`));
  });

  test('/permissions lists the rules numbered, allow, deny, ask then network, naming each layer; remove by rule or number changes its file', async () => {
    const run = async (line: string) => {
      const command = parsed(line);
      assert.ok(isRunnable(command));
      const [item] = await runCommand(command, withPaths(teamPaths(home, 'default')));
      return `${item?.kind}: ${item && 'text' in item ? item.text : ''}`;
    };
    const file = settingsPath(teamPaths(home, 'default').home);
    const user = join(home, 'user-config');
    process.env.TEAMS_CONFIG_DIR = user;
    const files = `  user    ${user}/settings.json\n  project ${file}\n  local   ${file.replace(/settings\.json$/, 'settings.local.json')}`;
    const START = 'the lead starts in mode default (no settings file sets permissions.defaultMode; --permission-mode overrides it)';
    assert.equal(await run('/permissions'), `output: ${START}\nno permission rules (add one with a on a permission request, or teams allow <rule>); the settings files:\n${files}`);
    addProjectRule(teamPaths(home, 'default').home, ['allow', 'network'], { tool: 'bash', pattern: 'npm test:*' });
    addProjectRule(teamPaths(home, 'default').home, 'allow', { tool: 'write_file', pattern: 'src/**' });
    addProjectRule(teamPaths(home, 'default').home, 'deny', { tool: 'bash', pattern: 'curl:*' });
    assert.equal(
      await run('/permissions'),
      `output: ${START}\npermission rules (remove one by its number: /permissions remove N, teams permissions --remove N):\n   1. allow   Bash(npm test:*)  (project)\n   2. allow   Write(src/**)  (project)\n   3. deny    Bash(curl:*)  (project)\n   4. network Bash(npm test:*)  (project)\nfrom the settings files:\n${files}`,
    );
    assert.equal(await run('/permissions remove 3'), `info: removed deny rule Bash(curl:*) from ${file}`);
    // By number, one entry: the network grant goes, the allow rule stays.
    assert.equal(await run('/permissions remove 3'), `info: removed network rule Bash(npm test:*) from ${file}`);
    assert.deepEqual(loadProjectRules(teamPaths(home, 'default').home).allow.map(showRule), ['Bash(npm test:*)', 'Write(src/**)']);
    assert.equal(await run('/permissions remove bash(npm  test*)'), `info: removed Bash(npm test:*) from ${file}`);
    assert.equal(await run('/permissions remove bash(ls*)'), 'info: no rule Bash(ls:*) in any settings file; nothing removed');
    assert.equal(await run('/permissions remove 7'), 'error: /permissions: no rule number 7 (there is 1 rule; /permissions lists them)');
    const left = loadProjectRules(teamPaths(home, 'default').home);
    assert.deepEqual([left.allow.map(showRule), left.deny.map(showRule), left.network.map(showRule)], [['Write(src/**)'], [], []]);
    assert.equal(await run('/permissions remove 0'), 'error: /permissions: no rule number 0 (there is 1 rule; /permissions lists them)');
    assert.equal((await runCommand({ name: 'permissions', remove: undefined }, runtime))[0]?.kind, 'error', 'no settings file without the team paths');
  });

  test('/compact tells the runtime whose context to compact, and says what it asked', async () => {
    const [item] = await runCommand({ name: 'compact', agent: undefined }, runtime);
    assert.deepEqual(item, { kind: 'info', text: 'asked lead to compact its context (now if idle, else before its next model call)' });
    await runCommand({ name: 'compact', agent: 'lead' }, runtime);
    assert.deepEqual(compacted, ['lead', 'lead'], 'an unknown member never reaches the runtime');
  });
});
