import type { Command } from 'commander';
import { BROADCAST, LEAD } from '../../protocol/names.js';
import { summarize, type Draft } from '../../protocol/messages.js';
import { checkSend } from '../../protocol/rules.js';
import { Envelope } from '../../protocol/messages.js';
import { newMessageId } from '../../protocol/ids.js';
import { memberNames } from '../../store/roster.js';
import type { CliContext, ContextFor } from '../context.js';
import { UsageError } from '../errors.js';
import { askLead, noLead } from '../lead-client.js';
import { describeIssues } from '../../lib/zod-issues.js';

/**
 * The human's messages are sent by the running lead, which signs them: agents believe a
 * message's sender only from its signature, so nothing written here directly would be read.
 * The rules are checked here first, so a typo is reported the same with or without a lead.
 */
async function sendAsHuman(context: CliContext, draft: Draft & { text: string }): Promise<string> {
  const team = await context.requireTeam();
  const parsed = Envelope.safeParse({ ...draft, id: newMessageId(), timestamp: new Date().toISOString() });
  if (!parsed.success) throw new UsageError(describeIssues(parsed.error, 'message'));
  const verdict = checkSend(parsed.data, { team: team.name, members: memberNames(team), lookupRequest: () => undefined });
  if (!verdict.ok) throw new UsageError(verdict.error);
  if (draft.from !== LEAD) throw new UsageError(`only the lead's messages can be sent from here; ${draft.from} sends its own`);
  return (await askLead(context, { op: 'send', to: draft.to, text: draft.text })) ?? noLead(context, 'sending a message');
}

export function registerSendCommands(program: Command, contextFor: ContextFor): void {
  program
    .command('send <to> <text>')
    .description('send a plain message from the lead (through the running lead, which signs it)')
    .option('--from <name>', 'the sender (only the lead)', LEAD)
    .action(async (to: string, text: string, options: { from: string }, command: Command) => {
      const context = contextFor(command);
      const said = await sendAsHuman(context, { type: 'message', from: options.from, to, text, summary: summarize(text) });
      process.stdout.write(`${said}\n`);
    });

  program
    .command('broadcast <text>')
    .description('send a plain message from the lead to every other member')
    .option('--from <name>', 'the sender (only the lead)', LEAD)
    .action(async (text: string, options: { from: string }, command: Command) => {
      const context = contextFor(command);
      const said = await sendAsHuman(context, { type: 'broadcast', from: options.from, to: BROADCAST, text, summary: summarize(text) });
      process.stdout.write(`${said}\n`);
    });
}
