import { agentNameProblem, didYouMean, PERMISSION_MODES, PermissionMode } from '../protocol/index.js';
import { modelIdProblem } from '../model/index.js';
import { parseRule } from '../policy/index.js';
import { assigneeProblem, EMPTY_SUBJECT, parseTaskIdList, taskIdProblem } from '../store/index.js';
import { AGENT_FLAG, spawnAgentFlag } from './spawn-agent-flag.js';

/** A slash command, parsed and checked: what the command runner executes. */
export type SlashCommand =
  /** The commands that take no arguments. */
  | { name: 'help' | 'team' | 'requests' | 'tasks' | 'memory' | 'init' | 'doctor' | 'mcp' }
  /** The screen's own (command-runner.ts SCREEN_COMMANDS). */
  | { name: 'clear' } | { name: 'cost' } | { name: 'status' }
  /** `/resume <n|id>`: the lead goes on with an earlier session; `/resume` alone opens the picker of them. */
  | { name: 'resume'; session: string }
  | { name: 'resume_list' }
  | { name: 'spawn'; member: string; role?: string; agent?: string; prompt: string; planMode: boolean; model?: string; mode?: PermissionMode; worktree?: true; host?: string }
  | { name: 'diff' | 'merge' | 'discard'; member: string }
  | { name: 'mode'; member: string; mode: PermissionMode }
  | { name: 'send'; to: string; text: string }
  | { name: 'broadcast'; text: string }
  | { name: 'inbox'; agent: string | undefined }
  | { name: 'task'; action: 'add'; subject: string; blockedBy: string[] }
  | { name: 'task'; action: 'assign'; id: string; member: string }
  | { name: 'task'; action: 'cancel'; id: string }
  | { name: 'approve'; requestId: string; feedback: string | undefined }
  | { name: 'reject'; requestId: string; reason: string }
  | { name: 'shutdown'; member: string; reason: string | undefined }
  | { name: 'respawn'; member: string }
  | { name: 'log'; agent: string | undefined }
  | { name: 'compact'; agent: string | undefined; instructions?: string }
  | { name: 'permissions'; remove: string | undefined }
  | { name: 'view'; agent: string | undefined }
  | { name: 'model'; model: string }
  /** `/model` alone: which model the lead runs. */
  | { name: 'model_shown' }
  | { name: 'quit' };

/** `exit` is Claude Code's word for `quit`: it parses to the same command. */
export type CommandName = Exclude<SlashCommand['name'], 'model_shown' | 'resume_list'> | 'exit';

/** The reference /help prints, in this order; completion offers the same names. */
export const COMMAND_HELP: readonly { name: CommandName; usage: string; what: string }[] = [
  { name: 'help', usage: '/help', what: 'this list and the keys' },
  { name: 'spawn', usage: '/spawn <name> <role> [prompt] [--plan-mode] [--model <id>] [--mode <mode>] [--worktree] [--host <host>]  or  /spawn <name> --agent <agent> [prompt] […]', what: 'start a teammate (--agent: as an agent definition of .teams/agents/; --worktree: in its own git worktree and branch; --host: on a machine running `teams host`)' },
  { name: 'diff', usage: '/diff <name>', what: "what a worktree teammate changed since it started, committed or not" },
  { name: 'merge', usage: '/merge <name>', what: "merge a stopped worktree teammate's branch into yours (a conflict merges nothing)" },
  { name: 'discard', usage: '/discard <name>', what: "throw a stopped worktree teammate's work away: its worktree and branch" },
  { name: 'mode', usage: `/mode <name> <${PERMISSION_MODES.join('|')}>`, what: "change a running teammate's permission mode (yours to grant)" },
  { name: 'send', usage: '/send <name> <text>', what: 'your own message to one running teammate (it reads "From the user: …")' },
  { name: 'broadcast', usage: '/broadcast <text>', what: 'a message from the lead to every member' },
  { name: 'team', usage: '/team', what: 'the roster: status, pid, time in state' },
  { name: 'inbox', usage: '/inbox [agent]', what: "an agent's unread messages (the lead's by default)" },
  { name: 'requests', usage: '/requests', what: 'every request and its state' },
  { name: 'tasks', usage: '/tasks', what: "the team's task board: each task's status, owner and what blocks it" },
  { name: 'task', usage: '/task add <subject> [--blocked-by id,…] | assign <id> <name> | cancel <id>', what: 'put a task on the board, assign a pending one to a teammate, or cancel one' },
  { name: 'approve', usage: '/approve <id> [feedback]', what: 'approve a plan, permission or finish request' },
  { name: 'reject', usage: '/reject <id> <reason>', what: 'reject one, saying why' },
  { name: 'shutdown', usage: '/shutdown <name> [reason]', what: 'ask a teammate to shut down' },
  { name: 'respawn', usage: '/respawn <name>', what: 'start a crashed or shut-down teammate again, with its conversation' },
  { name: 'log', usage: '/log [agent]', what: 'the latest audit log entries' },
  { name: 'compact', usage: '/compact [name] [instructions]', what: "summarise an agent's older turns to free its context (the lead's by default); instructions say what the summary must keep" },
  { name: 'permissions', usage: '/permissions [remove <rule|number>]', what: "the project's allow and deny rules, numbered; remove one" },
  { name: 'init', usage: '/init', what: 'ask the lead to look at the project and write a first AGENTS.md (its instructions for every agent)' },
  { name: 'doctor', usage: '/doctor', what: "whether agents' commands can be sandboxed here, their bounds, hooks granted more, the state roots hidden (teams doctor)" },
  { name: 'memory', usage: '/memory', what: 'the project instructions (AGENTS.md, CLAUDE.md) and agent definitions the agents are given' },
  { name: 'mcp', usage: '/mcp', what: "the lead's MCP servers (mcpServers in .mcp.json and settings.json): each one's file, state and tools" },
  { name: 'view', usage: '/view [name]', what: "show a teammate's session live (Shift+↑/↓ or Ctrl+P/N); /view alone goes back to the lead" },
  { name: 'resume', usage: '/resume [n|id]', what: "the lead's recent sessions in a picker (↑/↓, Enter); with n or an id, the lead goes on with that conversation (as --resume); teammates keep running" },
  { name: 'clear', usage: '/clear', what: 'a fresh conversation for the lead, in a new session (the old one stays for --resume); teammates keep running' },
  { name: 'cost', usage: '/cost', what: "this session's tokens and dollars per agent, and the share read from the prompt cache" },
  { name: 'model', usage: '/model [id]', what: "the lead's model, or set it for its next turns" },
  { name: 'status', usage: '/status', what: 'team, store, sandbox, model, mode, session and working directory' },
  { name: 'quit', usage: '/quit', what: 'shut the team down and leave (like Ctrl+C twice)' },
  { name: 'exit', usage: '/exit', what: 'the same as /quit' },
];

export const COMMAND_NAMES: readonly CommandName[] = COMMAND_HELP.map((c) => c.name);

/** The words a command takes first, for Tab: `/task a` + Tab lists add and assign. */
export const COMMAND_ACTIONS: Partial<Record<CommandName, readonly string[]>> = { task: ['add', 'assign', 'cancel'], permissions: ['remove'] };

export type Parsed = { ok: true; command: SlashCommand } | { ok: false; error: string };

/** Whether a submitted line is a slash command rather than words for the lead. */
export function isCommandLine(line: string): boolean {
  return line.trimStart().startsWith('/');
}

/** The first word of `text` and the rest, trimmed: free text keeps its own spacing. */
function split(text: string): [string, string] {
  const trimmed = text.trim();
  const space = trimmed.search(/\s/);
  return space < 0 ? [trimmed, ''] : [trimmed.slice(0, space), trimmed.slice(space).trim()];
}

/** Text given in quotes loses them, so /send bob "hi there" sends `hi there`. */
function unquote(text: string): string {
  const match = /^(["'])([\s\S]*)\1$/.exec(text);
  return match ? (match[2] ?? '') : text;
}

function usage(name: CommandName): string {
  return `usage: ${COMMAND_HELP.find((c) => c.name === name)?.usage ?? `/${name}`}`;
}

function nameError(name: CommandName, what: string, value: string): string | undefined {
  const problem = agentNameProblem(value);
  return problem ? `/${name}: ${what} '${value}': ${problem}` : undefined;
}

const fail = (error: string): Parsed => ({ ok: false, error });
const ok = (command: SlashCommand): Parsed => ({ ok: true, command });

/** Parse one slash command line. Never throws: a bad line gets a one-line error. */
export function parseCommand(line: string): Parsed {
  const [head, rest] = split(line);
  const name = head.slice(1).toLowerCase();
  if (!COMMAND_NAMES.includes(name as CommandName)) {
    const hint = didYouMean(name, COMMAND_NAMES, (command) => `/${command}`);
    return fail(`unknown command '${head}'${hint ? ` (${hint})` : ''}; /help lists them`);
  }
  const command = name as CommandName;
  const [first, afterFirst] = split(rest);
  const noArgs = (value: SlashCommand): Parsed => (rest === '' ? ok(value) : fail(`/${command} takes no arguments`));
  switch (command) {
    case 'help':
    case 'team':
    case 'mcp':
    case 'requests':
    case 'tasks':
    case 'memory':
    case 'init':
    case 'doctor':
    case 'clear':
    case 'cost':
    case 'status':
    case 'quit':
      return noArgs({ name: command });
    case 'model': {
      if (afterFirst !== '') return fail(usage(command));
      const problem = first === '' ? undefined : modelIdProblem(first);
      if (first === '') return ok({ name: 'model_shown' });
      return problem ? fail(`/model: ${problem}`) : ok({ name: 'model', model: first });
    }
    case 'exit':
      return noArgs({ name: 'quit' });
    case 'resume':
      if (afterFirst !== '') return fail(usage(command));
      return ok(first === '' ? { name: 'resume_list' } : { name: 'resume', session: first });
    case 'compact': {
      // `/compact keep the failing tests` steers the lead's summary, as in Claude Code; a first
      // word that names a member (resolved with the roster: compactTarget) picks whose.
      const agent = first === '' ? undefined : first;
      if (afterFirst !== '') return ok({ name: command, agent, instructions: afterFirst });
      const problem = agent && nameError(command, 'agent', agent);
      return problem ? fail(problem) : ok({ name: command, agent });
    }
    case 'inbox':
    case 'log':
    case 'view': {
      if (afterFirst !== '') return fail(usage(command));
      const agent = first === '' ? undefined : first;
      const problem = agent && nameError(command, 'agent', agent);
      return problem ? fail(problem) : ok({ name: command, agent });
    }
    case 'send': {
      if (first === '' || afterFirst === '') return fail(usage(command));
      const problem = nameError(command, 'recipient', first);
      return problem ? fail(problem) : ok({ name: 'send', to: first, text: unquote(afterFirst) });
    }
    case 'broadcast':
      return rest === '' ? fail(usage(command)) : ok({ name: 'broadcast', text: unquote(rest) });
    case 'approve':
      if (first === '') return fail(usage(command));
      return ok({ name: 'approve', requestId: first, feedback: afterFirst === '' ? undefined : unquote(afterFirst) });
    case 'reject':
      if (first === '' || afterFirst === '') return fail(`${usage(command)} (a rejection says why)`);
      return ok({ name: 'reject', requestId: first, reason: unquote(afterFirst) });
    case 'shutdown': {
      if (first === '') return fail(usage(command));
      const problem = nameError(command, 'teammate', first);
      return problem ? fail(problem) : ok({ name: 'shutdown', member: first, reason: afterFirst === '' ? undefined : unquote(afterFirst) });
    }
    case 'respawn':
    case 'diff':
    case 'merge':
    case 'discard': {
      if (first === '' || afterFirst !== '') return fail(usage(command));
      const problem = nameError(command, 'teammate', first);
      return problem ? fail(problem) : ok({ name: command, member: first });
    }
    case 'mode': {
      if (first === '' || afterFirst === '' || split(afterFirst)[1] !== '') return fail(usage(command));
      const problem = nameError(command, 'teammate', first);
      if (problem) return fail(problem);
      const mode = PermissionMode.safeParse(afterFirst);
      return mode.success ? ok({ name: 'mode', member: first, mode: mode.data }) : fail(`/mode: unknown mode '${afterFirst}': use one of ${PERMISSION_MODES.join(', ')}`);
    }
    case 'spawn':
      return parseSpawn(rest);
    case 'task':
      return parseTask(first.toLowerCase(), afterFirst);
    case 'permissions': {
      if (rest === '') return ok({ name: 'permissions', remove: undefined });
      if (first !== 'remove' || afterFirst === '') return fail(usage(command));
      const rule = /^\d+$/.test(afterFirst) ? undefined : parseRule(unquote(afterFirst));
      if (typeof rule === 'string') return fail(`/permissions: invalid rule: ${rule}`);
      return ok({ name: 'permissions', remove: unquote(afterFirst) });
    }
  }
}

function parseSpawn(rest: string): Parsed {
  // The flags may come anywhere; what is left is name, role, then the prompt as typed.
  const flag = /(^|\s)--plan-mode(?=\s|$)/;
  const planMode = flag.test(rest);
  const modelFlag = /(^|\s)--model(?:(?:\s+|=)(?<id>[^\s-]\S*)|=)?(?=\s|$)/;
  const model = modelFlag.exec(rest);
  if (model && model.groups?.id === undefined) return fail('/spawn: --model needs a model id, e.g. --model claude-haiku-4-5');
  const modelProblem = model?.groups?.id === undefined ? undefined : modelIdProblem(model.groups.id);
  if (modelProblem) return fail(`/spawn: ${modelProblem}`);
  const modeFlag = /(^|\s)--mode(?:(?:\s+|=)(?<mode>[^\s-]\S*)|=)?(?=\s|$)/;
  const modeGiven = modeFlag.exec(rest);
  const mode = modeGiven ? PermissionMode.safeParse(modeGiven.groups?.mode) : undefined;
  if (mode && !mode.success) return fail(`/spawn: --mode needs one of ${PERMISSION_MODES.join(', ')}`);
  const worktreeFlag = /(^|\s)--worktree(?=\s|$)/;
  const worktree = worktreeFlag.test(rest);
  const hostFlag = /(^|\s)--host(?:(?:\s+|=)(?<host>[^\s-]\S*)|=)?(?=\s|$)/;
  const hostGiven = hostFlag.exec(rest);
  const host = hostGiven?.groups?.host;
  if (hostGiven && host === undefined) return fail('/spawn: --host needs a host name (`teams hosts` lists them)');
  const hostProblem = host === undefined ? undefined : nameError('spawn', 'host', host);
  if (hostProblem) return fail(hostProblem);
  const agent = spawnAgentFlag(rest);
  if (agent.error !== undefined) return fail(agent.error);
  const withoutFlag = rest.replace(flag, ' ').replace(modelFlag, ' ').replace(modeFlag, ' ').replace(worktreeFlag, ' ').replace(hostFlag, ' ').replace(AGENT_FLAG, ' ').trim();
  const [member, afterName] = split(withoutFlag);
  // With --agent the definition names the role: what follows the name is the prompt.
  const [role, prompt] = agent.name === undefined ? split(afterName) : [undefined, afterName];
  if (member === '' || role === '') return fail(usage('spawn'));
  // Only name and role are checked: the prompt is free text and may well contain dashes.
  const option = [member, role ?? ''].find((word) => word.startsWith('-'));
  if (option) return fail(`/spawn: unknown option '${option}' (only --agent <agent>, --plan-mode, --model <id>, --mode <mode>, --worktree and --host <host>)`);
  const problem = nameError('spawn', 'name', member);
  if (problem) return fail(problem);
  const id = model?.groups?.id;
  return ok({ name: 'spawn', member, ...(role === undefined ? {} : { role }), ...(agent.name === undefined ? {} : { agent: agent.name }), prompt: unquote(prompt), planMode, ...(id === undefined ? {} : { model: id }), ...(mode?.success ? { mode: mode.data } : {}), ...(worktree ? { worktree: true as const } : {}), ...(host === undefined ? {} : { host }) });
}

/** Where the REPL shows the board's ids. */
const LISTED_BY = '/tasks';

function parseTask(action: string, rest: string): Parsed {
  const [id, afterId] = split(rest);
  switch (action) {
    case 'add':
      return parseTaskAdd(rest);
    case 'assign': {
      if (id === '' || afterId === '' || split(afterId)[1] !== '') return fail('usage: /task assign <id> <name>');
      const problem = taskIdProblem(id, LISTED_BY) ?? assigneeProblem(afterId);
      if (problem) return fail(`/task: ${problem}`);
      const badName = nameError('task', 'teammate', afterId);
      return badName ? fail(badName) : ok({ name: 'task', action: 'assign', id, member: afterId });
    }
    case 'cancel': {
      if (id === '' || afterId !== '') return fail('usage: /task cancel <id>');
      const problem = taskIdProblem(id, LISTED_BY);
      return problem ? fail(`/task: ${problem}`) : ok({ name: 'task', action: 'cancel', id });
    }
    case '':
      return fail(usage('task'));
    default:
      return fail(`/task: unknown action '${action}': add, assign or cancel (${usage('task')})`);
  }
}

function parseTaskAdd(rest: string): Parsed {
  // --blocked-by may come anywhere, its ids joined by commas (a blank after one is fine); what is left is the subject as typed.
  const flag = /(^|\s)--blocked-by(?:(?:\s+|=)(?<ids>[^\s,-][^\s,]*(?:\s*,\s*[^\s,]+)*,?)|=)?(?=\s|$)/g;
  const given = [...rest.matchAll(flag)];
  if (given.length > 1) return fail('/task: give --blocked-by once, with every id: --blocked-by 1,2');
  const ids = given[0]?.groups?.ids;
  if (given.length === 1 && ids === undefined) return fail('/task: --blocked-by needs task ids, e.g. --blocked-by 1,2');
  const blockedBy = ids === undefined ? { ok: true as const, ids: [] } : parseTaskIdList(ids, LISTED_BY);
  if (!blockedBy.ok) return fail(`/task: ${blockedBy.error}`);
  const subject = unquote(rest.replace(flag, '').trim()).trim();
  if (subject === '') return fail(`/task: ${EMPTY_SUBJECT} (usage: /task add <subject> [--blocked-by id,…])`);
  // The subject is free text and may hold dashes, but one that starts with an option is a mistyped flag.
  if (subject.startsWith('--')) return fail(`/task: unknown option '${split(subject)[0]}' (only --blocked-by <ids>)`);
  return ok({ name: 'task', action: 'add', subject, blockedBy: blockedBy.ids });
}
