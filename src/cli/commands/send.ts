import type { Command } from 'commander';
import { agentNameProblem, BROADCAST, LEAD, summarize, type Draft, checkSend, Envelope, newMessageId } from '../../protocol/index.js';
import { inertText, describeIssues } from '../../lib/index.js';
import { memberNames } from '../../store/index.js';
import type { CliContext, ContextFor } from '../context.js';
import { UsageError } from '../errors.js';
import { askLead, noLead } from '../lead-client.js';

/** The sender that means the human themselves: the lead relays it as a signed user_message. */
const USER = 'user';

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
  if (draft.from !== LEAD) throw new UsageError(`only the lead's messages (or, to one teammate, --from ${USER}) can be sent from here; ${draft.from} sends its own`);
  return (await askLead(context, { op: 'send', to: draft.to, text: draft.text })) ?? noLead(context, 'sending a message');
}

/** The human's own words to one teammate: only the running lead may sign them, so it is asked to. */
async function sendAsUser(context: CliContext, to: string, text: string): Promise<string> {
  if (to === BROADCAST) throw new UsageError('--from user goes to one teammate: the user does not broadcast');
  const problem = agentNameProblem(to);
  if (problem) throw new UsageError(problem);
  if (to === LEAD) throw new UsageError('the lead hears the user at its own prompt; --from user goes to a teammate');
  if (text.trim() === '') throw new UsageError('the message is empty');
  return (await askLead(context, { op: 'tell', name: to, text })) ?? noLead(context, 'sending a message from the user');
}

export function registerSendCommands(program: Command, contextFor: ContextFor): void {
  program
    .command('send <to> <text>')
    .description('send a plain message from the lead, or with --from user your own words to a teammate (the running lead signs either)')
    .option('--from <name>', `the sender: ${LEAD}, or ${USER} (the teammate reads "From the user: …")`, LEAD)
    .action(async (to: string, text: string, options: { from: string }, command: Command) => {
      const context = contextFor(command);
      if (options.from === USER) {
        process.stdout.write(`${inertText(await sendAsUser(context, to, text))}\n`);
        return;
      }
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

/** `teams interrupt <name>`: stop a teammate's current model call or tool, through the running lead, which signs it. */
export function registerInterruptCommand(program: Command, contextFor: ContextFor): void {
  program
    .command('interrupt <name>')
    .description("stop a running teammate's current model call or tool (its command's whole process group); it then waits for your next message")
    .action(async (name: string, _options: unknown, command: Command) => {
      const problem = agentNameProblem(name);
      if (problem) throw new UsageError(problem);
      const context = contextFor(command);
      const said = (await askLead(context, { op: 'interrupt', name })) ?? noLead(context, 'interrupting a teammate');
      process.stdout.write(`${inertText(said)}\n`);
    });
}
