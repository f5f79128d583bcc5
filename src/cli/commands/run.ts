import type { Command } from 'commander';
import { mkdirSync, statSync } from 'node:fs';
import { resolve } from 'node:path';
import type { TeamPaths } from '../../team/index.js';
import { resolveModelSettings } from '../../model/index.js';
import { PERMISSION_MODES } from '../../protocol/index.js';
import { modeNamed } from '../../lead/index.js';
import { createEventPrinter } from '../print-events.js';
import { SANDBOX_NETWORKS, SandboxNetwork } from '../../sandbox/index.js';
import { UsageError } from '../errors.js';
import type { ContextFor } from '../context.js';
import { chooseSession, type SessionFlags } from '../session-choice.js';
import { inertLine } from '../../lib/index.js';
import { jsonSink, type OutputFlags } from '../json-output.js';
import { failedMcpServers } from '../../tools/index.js';

export type LeadFlags = SessionFlags & {
  model?: string;
  offline?: boolean;
  script?: string;
  permissionMode?: string;
  planReviewer: string;
  graceMs: string;
  tokenBudget?: string;
  /** commander's negation: false with --no-sandbox. */
  sandbox: boolean;
  sandboxNetwork: string;
  workdir?: string;
  contextWindow?: string;
};

/** The options every way of running the lead shares. */
export function addLeadOptions(command: Command): Command {
  return command
    .option('--model <id>', 'the model (env TEAMS_MODEL)')
    .option('--offline', 'use the built-in scripted offline model')
    .option('--script <path>', 'the offline model script (env TEAMS_OFFLINE_SCRIPT)')
    .option('--permission-mode <mode>', `the lead's permission mode (${PERMISSION_MODES.join(', ')}; default: permissions.defaultMode in the settings, else default)`)
    .option('--plan-reviewer <who>', 'who reviews plans: human or lead', 'human')
    .option('--grace-ms <ms>', 'how long a stopping teammate has before its processes are ended', '5000')
    .option('--context-window <tokens>', "each agent's context window, past 80% of which it compacts (env TEAMS_CONTEXT_WINDOW; default: the model's own)")
    .option('--token-budget <tokens>', 'tokens the whole team may use; once spent, no new work starts')
    .option('--sandbox-network <on|none>', "agents' commands may reach the network (on) or not (none)", 'on')
    .option('--workdir <dir>', "the agents' working directory (default: the current one; offline: the team's scratch workspace)")
    .option('--no-sandbox', 'run agents\' commands without bubblewrap: approvals become advisory')
    .option('-c, --continue', "go on with the team's most recent session: the lead sees its whole earlier conversation")
    .option('-r, --resume <id>', 'go on with the session <id> (`teams sessions` lists them)');
}

export function leadOptionsFrom(flags: LeadFlags) {
  // Claude Code's names (acceptEdits, bypassPermissions) are taken as ours.
  const mode = flags.permissionMode === undefined ? undefined : modeNamed(flags.permissionMode);
  if (flags.permissionMode !== undefined && mode === undefined) throw new UsageError(`--permission-mode must be one of ${PERMISSION_MODES.join(', ')} (or Claude Code's acceptEdits, bypassPermissions), not '${flags.permissionMode}'`);
  if (flags.planReviewer !== 'human' && flags.planReviewer !== 'lead') throw new UsageError(`--plan-reviewer must be human or lead, not '${flags.planReviewer}'`);
  const graceMs = Number(flags.graceMs);
  if (!Number.isInteger(graceMs) || graceMs < 0) throw new UsageError(`--grace-ms must be a whole number of milliseconds, not '${flags.graceMs}'`);
  const tokenBudget = flags.tokenBudget === undefined ? undefined : Number(flags.tokenBudget);
  if (tokenBudget !== undefined && (!Number.isInteger(tokenBudget) || tokenBudget <= 0)) {
    throw new UsageError(`--token-budget must be a positive whole number of tokens, not '${flags.tokenBudget}'`);
  }
  const network = SandboxNetwork.safeParse(flags.sandboxNetwork);
  if (!network.success) throw new UsageError(`--sandbox-network must be one of ${SANDBOX_NETWORKS.join(', ')}, not '${flags.sandboxNetwork}'`);
  const sandbox = flags.sandbox ? { kind: 'bwrap' as const, network: network.data } : { kind: 'off' as const };
  const settings = resolveModelSettings({ model: flags.model, offline: flags.offline, offlineScript: flags.script, contextWindow: flags.contextWindow });
  return { settings, ...(mode === undefined ? {} : { permissionMode: mode }), planReviewer: flags.planReviewer, graceMs, tokenBudget, sandbox } as const;
}

/** Where the agents work: the offline demo in a scratch workspace, never in the user's files unless told. */
export function agentsWorkdir(flags: LeadFlags, paths: TeamPaths, offline: boolean): string {
  if (flags.workdir !== undefined) {
    if (flags.workdir === '') throw new UsageError('--workdir is empty');
    const dir = resolve(flags.workdir);
    const info = statSync(dir, { throwIfNoEntry: false });
    if (!info?.isDirectory()) throw new UsageError(`--workdir ${dir} is not a directory`);
    return dir;
  }
  const cwd = offline ? paths.workspace : process.cwd();
  mkdirSync(cwd, { recursive: true });
  return cwd;
}

export function registerRunCommand(program: Command, contextFor: ContextFor): void {
  addLeadOptions(
    program
      .command('run <prompt>')
      .description('run the lead without the UI: print the team\'s events, exit once the work is done')
      .option('--json', 'one JSON document at the end: the session and every event')
      .option('--jsonl', 'one JSON object per event, as it happens'),
  ).action(async (prompt: string, flags: LeadFlags & OutputFlags, command: Command) => {
    const json = jsonSink(flags);
    const context = contextFor(command);
    const options = leadOptionsFrom(flags);
    const cwd = agentsWorkdir(flags, context.paths, options.settings.offline);
    const session = await chooseSession(context.store, flags);
    // Loaded on use: the model SDK is the heaviest import, and only running agents need it.
    const { LeadRuntime } = await import('../../lead/index.js');
    const runtime = await LeadRuntime.start({ store: context.store, storeDescriptor: context.storeDescriptor, paths: context.paths, cwd, session, ...options });
    const print = createEventPrinter(json, (line) => process.stdout.write(`${line}\n`));
    const { id, resumed, earlier, problems } = runtime.session;
    if (json) json.add({ type: 'session', id, resumed, earlier_records: earlier.length, problems });
    else process.stdout.write(`team ${context.paths.team} · model ${runtime.model.label} · working in ${cwd} · session ${id}${resumed ? ` (resumed, ${earlier.length} earlier records)` : ''}\n`);
    for (const problem of problems) process.stderr.write(`teams: set aside ${inertLine(problem.ref)}: ${inertLine(problem.reason)}\n`);
    // What this lead put right of an earlier one's leftovers, before anything else it reports.
    for (const text of [...runtime.session.notices, ...runtime.session.recovered]) print({ type: 'problem', text });
    for (const text of failedMcpServers(runtime.mcp)) print({ type: 'problem', text });
    try {
      await new Promise<void>((resolve, reject) => {
        let stopping = false;
        // Stops the team once. A failure to stop, or to tell whether the work is done, ends the
        // command with that error instead of leaving it waiting for a stop that never comes.
        const finish = (failure?: unknown) => {
          if (stopping) return;
          stopping = true;
          runtime.submit({ op: 'quit' }).then(() => (failure === undefined ? resolve() : reject(failure)), reject);
        };
        // Done: the lead idle, no teammate working, nothing for the human. Checked after every
        // event, but only once the code that emitted it has finished: events are emitted mid-change
        // (the lead's loop says 'idle' before it stops being busy), and a check that reads the
        // state too early may see no later event to check again. One check per event-loop turn.
        let checkQueued = false;
        const checkSoon = () => {
          if (checkQueued || stopping) return;
          checkQueued = true;
          setImmediate(() => {
            checkQueued = false;
            runtime.quiet().then((quiet) => quiet && finish(), finish);
          });
        };
        runtime.events.subscribe((event) => {
          print(event);
          checkSoon();
        });
        process.once('SIGINT', () => finish());
        process.once('SIGTERM', () => finish());
        // A prompt the lead's checks refuse (an empty one) ends the run with their words.
        runtime.submit({ op: 'prompt', text: prompt }).catch(finish);
      });
    } finally {
      // --json: the one document, whole once the run is over (a failed run's events too).
      json?.end();
    }
  });
}
