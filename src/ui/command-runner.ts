import { errorMessage } from '../lib/index.js';
import { requirePaths } from '../team/index.js';
import { describeMcpServers, taskDetail } from '../tools/index.js';
import { involves, requireStoredMember } from '../store/index.js';
import { formatAudit, formatMembers, formatMessage, formatRequests } from '../present/index.js';
import { LEAD } from '../protocol/index.js';
import { COMMAND_HELP, type SlashCommand } from './commands.js';
import { compactTarget } from './compact-target.js';
import type { ReplRuntime } from './runtime.js';
import type { NewItem } from './state/types.js';
import { permissionsList } from './permissions-command.js';
import { memoryList } from './memory-command.js';
import { submit } from './submit.js';
import { doctorReport, doctorText, type LeadOp } from '../lead/index.js';
import { renderPrompt } from '../agent/index.js';

/** Commands the controller carries out itself: they change the screen or read what it shows. */
const SCREEN_COMMANDS = ['clear', 'resume', 'resume_list', 'quit', 'view', 'cost', 'status', 'model_shown'] as const;
type ScreenCommand = (typeof SCREEN_COMMANDS)[number];

/** Whether `runCommand` carries the command out (the rest are the controller's). */
export function isRunnable(command: SlashCommand): command is Exclude<SlashCommand, { name: ScreenCommand }> {
  return !(SCREEN_COMMANDS as readonly string[]).includes(command.name);
}

/** How many lines /log and /requests show: the newest, since the screen is for now. */
const RECENT = 30;

const KEYS = [
  'Keys:',
  '  input line   Enter send (to the lead; in a teammate\'s view, to that teammate as your message) · ↑/↓ history · Tab complete (empty line: go to the queue) · Shift+Tab the lead\'s mode: default → accept-edits → plan · Esc interrupt the agent shown',
  '  queue        ↑/↓ select (any other typing goes back to the input line) · y approve · n reject with a reason · v whole plan/command, or what a permission will do (its diff) · a allow: s this exact call for the session, or p a rule for the project (edit, Enter saves to settings.json and approves) · Esc back',
  '  /resume      ↑/↓ choose a session · Enter the lead goes on with it · Esc close (other typing goes back to the input line)',
  '  anywhere     Shift+↓/↑ or Ctrl+N/P show the next/previous agent\'s session · Ctrl+O tool results whole or as one line · Ctrl+T the task board · Ctrl+C clears the line; on an empty line, twice within 2 s shuts the team down and quits (once more: force)',
];

export function helpText(): string {
  const width = Math.max(...COMMAND_HELP.map((c) => c.usage.length));
  return ['Commands:', ...COMMAND_HELP.map((c) => `  ${c.usage.padEnd(width)}  ${c.what}`), ...KEYS].join('\n');
}

function recent(lines: string[], what: string): string {
  const skipped = lines.length - RECENT;
  return skipped > 0 ? [`(${skipped} older ${what} not shown)`, ...lines.slice(-RECENT)].join('\n') : lines.join('\n');
}

/** /task: the human's change to the board, a lead op like the socket's (whose words are the REPL's too). */
function taskOp(command: Extract<SlashCommand, { name: 'task' }>): LeadOp {
  if (command.action === 'add') return { op: 'task_create', subject: command.subject, blocked_by: command.blockedBy };
  if (command.action === 'assign') return { op: 'task_assign', id: command.id, owner: command.member };
  return { op: 'task_cancel', id: command.id, note: 'cancelled by the user in the REPL' };
}

async function execute(command: Exclude<SlashCommand, { name: ScreenCommand }>, runtime: ReplRuntime): Promise<NewItem[]> {
  const { store } = runtime;
  switch (command.name) {
    case 'help':
      return [{ kind: 'output', text: helpText() }];
    case 'init':
      // Claude Code's /init: a prompt to the lead's model, which looks and writes (asking as any write asks).
      await submit(runtime, { op: 'prompt', text: renderPrompt('init.md', {}) });
      return [{ kind: 'info', text: 'asked the lead to look at the project and write a first AGENTS.md' }];
    case 'model':
      // The lead's event says so once it is set (the header and the transcript follow it).
      await runtime.submit({ op: 'lead_model', model: command.model });
      return [];
    case 'spawn': {
      // Typed by the human: a --mode is their grant, beyond the lead's own if they say so.
      const { pid, model } = await submit(runtime, {
        op: 'spawn',
        name: command.member,
        ...(command.role === undefined ? {} : { role: command.role }),
        ...(command.agent === undefined ? {} : { agent: command.agent }),
        prompt: command.prompt,
        plan_mode: command.planMode,
        ...(command.model === undefined ? {} : { model: command.model }),
        ...(command.mode === undefined ? {} : { mode: command.mode }),
        ...(command.worktree ? { worktree: true } : {}),
        ...(command.host === undefined ? {} : { host: command.host }),
      });
      const mode = (command.mode ? `, ${command.mode} mode` : command.planMode ? ', plan mode' : '') + (command.worktree ? ', own worktree' : '') + (command.host ? `, on host ${command.host}` : '');
      const role = command.agent === undefined ? command.role : `agent ${command.agent}`;
      return [{ kind: 'info', text: `spawned ${command.member} (${role}${mode}, ${model}, pid ${pid})` }];
    }
    case 'mode':
      await runtime.submit({ op: 'mode', name: command.member, mode: command.mode });
      return [{ kind: 'info', text: `set ${command.member}'s permission mode to ${command.mode}` }];
    case 'send': {
      // The human's own words, signed by the lead and read as the user's (a user_message).
      const sent = await submit(runtime, { op: 'tell', name: command.to, text: command.text });
      return [{ kind: 'info', text: `sent to ${command.to} from you (${sent.id})` }];
    }
    case 'broadcast': {
      const sent = await submit(runtime, { op: 'broadcast', text: command.text });
      return [{ kind: 'info', text: `broadcast to the team (${sent.id})` }];
    }
    case 'team':
      return [{ kind: 'output', text: formatMembers((await store.roster.load())?.members ?? []) }];
    case 'mcp':
      return [{ kind: 'output', text: describeMcpServers(runtime.mcp?.statuses() ?? []).join('\n') }];
    case 'inbox': {
      const agent = command.agent ?? LEAD;
      await requireStoredMember(store, agent);
      const { messages, problems } = await store.mailboxes.peek(agent);
      const lines = [...messages.map(formatMessage), ...problems.map((p) => `unreadable entry ${p.ref}: ${p.reason}`)];
      return [{ kind: 'output', text: lines.length === 0 ? `no unread messages for ${agent}` : recent(lines, 'messages') }];
    }
    case 'requests': {
      const records = await store.requests.list();
      return [{ kind: 'output', text: records.length <= RECENT ? formatRequests(records) : `(${records.length - RECENT} older requests not shown)\n${formatRequests(records.slice(-RECENT))}` }];
    }
    case 'tasks': {
      const tasks = await store.tasks.list();
      return [{ kind: 'output', text: tasks.length === 0 ? 'the task board is empty' : tasks.map(taskDetail).join('\n') }];
    }
    case 'task':
      return [{ kind: 'info', text: (await runtime.submit(taskOp(command))).message }];
    case 'approve':
    case 'reject': {
      const approve = command.name === 'approve';
      const note = approve ? command.feedback : command.reason;
      const record = await submit(runtime, { op: 'decide', request_id: command.requestId, approve, ...(note === undefined ? {} : { note }) });
      return [{ kind: 'info', text: `${approve ? 'approved' : 'rejected'} ${record.kind} request ${record.request_id} from ${record.from}` }];
    }
    // The lead's words are the REPL's too: what it asked, or what it respawned and cancelled.
    case 'shutdown':
      return [{ kind: 'info', text: (await runtime.submit({ op: 'shutdown', name: command.member, ...(command.reason === undefined ? {} : { reason: command.reason }) })).message }];
    case 'respawn':
      return [{ kind: 'info', text: (await runtime.submit({ op: 'respawn', name: command.member })).message }];
    case 'compact': {
      const members = (await runtime.store.roster.load())?.members.map((m) => m.name) ?? [];
      // What it came to is reported when it is done: a compaction takes a model call.
      return [{ kind: 'info', text: (await runtime.submit({ op: 'compact', ...compactTarget(command, members) })).message }];
    }
    case 'diff':
      return [{ kind: 'output', text: (await runtime.submit({ op: 'diff', name: command.member })).message }];
    case 'merge':
    case 'discard':
      return [{ kind: 'info', text: (await runtime.submit({ op: command.name, name: command.member })).message }];
    case 'permissions': {
      const { paths } = runtime.options;
      if (command.remove !== undefined) return [{ kind: 'info', text: (await runtime.submit({ op: 'permissions_remove', rule: command.remove })).message }];
      return permissionsList(requirePaths(paths).home);
    }
    case 'memory':
      return memoryList(runtime.options.cwd, requirePaths(runtime.options.paths).home);
    case 'doctor': {
      const report = doctorReport(requirePaths(runtime.options.paths), await store.roster.load(), runtime.options.cwd);
      return [{ kind: 'output', text: [doctorText(report), ...(report.blocker ? [report.blocker] : [])].join('\n') }];
    }
    case 'log': {
      if (command.agent) await requireStoredMember(store, command.agent);
      const { entries } = await store.audit.read();
      const lines = entries.filter((e) => !command.agent || involves(e, command.agent)).map(formatAudit);
      return [{ kind: 'output', text: lines.length === 0 ? 'the audit log is empty' : recent(lines, 'entries') }];
    }
  }
}

/**
 * Run a parsed slash command against the runtime; its answer or its failure comes back as
 * transcript items. Never throws: a refused or failed command is one error line.
 */
export async function runCommand(command: Exclude<SlashCommand, { name: ScreenCommand }>, runtime: ReplRuntime): Promise<NewItem[]> {
  try {
    return await execute(command, runtime);
  } catch (error) {
    return [{ kind: 'error', text: `/${command.name}: ${errorMessage(error)}` }];
  }
}
