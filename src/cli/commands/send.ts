import type { Command } from 'commander';
import { BROADCAST, LEAD } from '../../protocol/names.js';
import { summarize } from '../../protocol/messages.js';
import type { ContextFor } from '../program.js';

export function registerSendCommands(program: Command, contextFor: ContextFor): void {
  program
    .command('send <to> <text>')
    .description('send a plain message (as the lead unless --from)')
    .option('--from <name>', 'the sender', LEAD)
    .action(async (to: string, text: string, options: { from: string }, command: Command) => {
      const context = contextFor(command);
      context.requireTeam();
      const sent = await context.bus.send({ type: 'message', from: options.from, to, text, summary: summarize(text) });
      process.stdout.write(`sent ${sent.id} to ${to}\n`);
    });

  program
    .command('broadcast <text>')
    .description('send a plain message to every other member')
    .option('--from <name>', 'the sender', LEAD)
    .action(async (text: string, options: { from: string }, command: Command) => {
      const context = contextFor(command);
      context.requireTeam();
      const sent = await context.bus.send({ type: 'broadcast', from: options.from, to: BROADCAST, text, summary: summarize(text) });
      process.stdout.write(`broadcast ${sent.id}\n`);
    });
}
