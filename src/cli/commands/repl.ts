import type { Command } from 'commander';
import { exitAfterClosedTerminal } from '../closed-terminal.js';
import { EXIT_OK, UsageError } from '../errors.js';
import type { ContextFor } from '../context.js';
import { addLeadOptions, agentsWorkdir, leadOptionsFrom, type LeadFlags } from './run.js';
import { chooseSession } from '../session-choice.js';
import { didYouMean } from '../../protocol/index.js';
import { inertLine } from '../../lib/index.js';

/**
 * `teams` alone (and `npm start`) opens the REPL. It is the default command, `teams repl`,
 * rather than options on the root: root options are parsed anywhere on the line, so
 * `teams run --offline` would lose its own --offline to them.
 */
export function registerReplCommand(program: Command, contextFor: ContextFor): void {
  addLeadOptions(
    program
      .command('repl', { isDefault: true })
      .description('the interactive REPL: chat with the lead, watch the team, approve from the keyboard (the default)')
      // The default command also receives whatever word `teams` did not recognise as a command.
      .allowExcessArguments(true),
  ).action(async (flags: LeadFlags, command: Command) => {
    const [unknown] = command.args;
    if (unknown !== undefined) {
      const commands = (command.parent?.commands ?? []).map((c) => c.name()).filter((name) => name !== command.name());
      const hint = didYouMean(unknown, commands, (name) => `\`teams ${name}\``);
      throw new UsageError(`unknown command '${inertLine(unknown)}' (${hint ?? 'see `teams --help`'})`);
    }
    if (!process.stdin.isTTY) throw new UsageError('the REPL needs a terminal; use `teams run <prompt>` for scripts');
    const context = contextFor(command);
    const options = leadOptionsFrom(flags);
    const cwd = agentsWorkdir(flags, context.paths, options.settings.offline);
    const session = await chooseSession(context.store, flags);
    // Ink renders only its last frame when it believes it runs in CI (it reads CI once, when
    // loaded). The REPL is on a real terminal here, so it must be interactive whatever CI says.
    delete process.env.CI;
    delete process.env.CONTINUOUS_INTEGRATION;
    // Loaded on use: plain commands stay fast without React, Ink and the model SDK.
    const { LeadRuntime } = await import('../../lead/index.js');
    const { startRepl } = await import('../../ui/index.js');
    const runtime = await LeadRuntime.start({ store: context.store, storeDescriptor: context.storeDescriptor, paths: context.paths, cwd, session, ...options });
    const end = await startRepl({ runtime, storeStatus: context.takeStoreStatus() });
    if (end.terminalClosed) exitAfterClosedTerminal(EXIT_OK);
  });
}
