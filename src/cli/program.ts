import { Command, Option } from 'commander';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { PACKAGE_ROOT, inertText } from '../lib/index.js';
import { STORE_ENV } from '../store/index.js';
import { CliContext, type ContextFor, type GlobalOptions } from './context.js';
import { registerMemberCommands } from './commands/member.js';
import { registerStatusCommand } from './commands/status.js';
import { registerInterruptCommand, registerSendCommands } from './commands/send.js';
import { registerInboxCommand } from './commands/inbox.js';
import { registerRequestCommands } from './commands/requests.js';
import { registerAuditCommand } from './commands/audit.js';
import { registerLogsCommand } from './commands/logs.js';
import { registerLifecycleCommands } from './commands/lifecycle.js';
import { registerRunCommand } from './commands/run.js';
import { registerReplCommand } from './commands/repl.js';
import { registerDoctorCommand } from './commands/doctor.js';
import { registerSessionsCommand } from './commands/sessions.js';
import { registerPermissionCommands } from './commands/permissions.js';
import { registerWorktreeCommands } from './commands/worktrees.js';
import { registerTaskCommands } from './commands/tasks.js';
import { registerHostCommand } from './commands/host.js';
import { registerHostsCommands } from './commands/hosts.js';
import { registerAgentsCommand } from './commands/agents.js';
import { registerMcpCommands } from './commands/mcp.js';

const packageJson = createRequire(import.meta.url)(join(PACKAGE_ROOT, 'package.json')) as { version: string };

/** The `teams` program, and how to close what its command opened (the team's store) once it has run. */
export function buildProgram(): { program: Command; close: () => Promise<void> } {
  const program = new Command('teams')
    .description('A multi-agent REPL for the terminal: a lead agent, teammate processes, durable mailboxes.')
    .version(packageJson.version, '-V, --version')
    .addOption(new Option('--home <dir>', 'state root').env('TEAMS_HOME').default('./.teams'))
    .addOption(new Option('--team <name>', 'team name').env('TEAMS_TEAM').default('default'))
    // No default shown: the absence is the file store, and a URL given by env may hold a password.
    .addOption(new Option('--store <url>', "the team's shared store: file: (the default, under --home) or redis://…").env(STORE_ENV))
    .showHelpAfterError('(run with --help for usage)')
    // Commander's errors quote the argument it could not use, whatever it holds.
    .configureOutput({ outputError: (text, write) => write(inertText(text)) })
    // The REPL's options belong to the default command; a newcomer reads only this page.
    .addHelpText('after', `
Start the REPL (the default command; all its options: teams repl --help):
  teams                      chat with the lead, watch the team, approve from the keyboard
  teams -c, --continue       go on with the team's most recent session
  teams -r, --resume <id>    go on with session <id> (teams sessions lists them)
  teams --offline            the built-in scripted offline model (no API key needed)
  teams --model <id>         the model (env TEAMS_MODEL)`)
    .exitOverride();

  // One context per command run: the store the hook below opens is the one its action uses.
  const contexts = new Map<Command, CliContext>();
  const contextFor: ContextFor = (command) => {
    let context = contexts.get(command);
    if (!context) {
      context = new CliContext(command.optsWithGlobals<GlobalOptions>(), command.getOptionValueSourceWithGlobals('home'));
      contexts.set(command, context);
    }
    return context;
  };
  // Opening a store may connect (Redis): done once, before the action, so that commands use it as a plain value.
  program.hook('preAction', async (_program, action) => {
    await contextFor(action).open();
  });
  registerMemberCommands(program, contextFor);
  registerStatusCommand(program, contextFor);
  registerSendCommands(program, contextFor);
  registerInterruptCommand(program, contextFor);
  registerInboxCommand(program, contextFor);
  registerRequestCommands(program, contextFor);
  registerAuditCommand(program, contextFor);
  registerLogsCommand(program, contextFor);
  registerLifecycleCommands(program, contextFor);
  registerRunCommand(program, contextFor);
  registerSessionsCommand(program, contextFor);
  registerDoctorCommand(program, contextFor);
  registerPermissionCommands(program, contextFor);
  registerWorktreeCommands(program, contextFor);
  registerTaskCommands(program, contextFor);
  registerHostCommand(program, contextFor);
  registerHostsCommands(program, contextFor);
  registerAgentsCommand(program, contextFor);
  registerMcpCommands(program, contextFor);

  // Last, as the default command: `teams` with no command opens the REPL.
  registerReplCommand(program, contextFor);
  for (const command of program.commands) command.exitOverride();
  const close = async () => {
    const opened = [...contexts.values()];
    contexts.clear();
    for (const context of opened) await context.close();
  };
  return { program, close };
}
