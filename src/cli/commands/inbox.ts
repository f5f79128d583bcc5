import type { Command } from 'commander';
import type { Envelope } from '../../protocol/index.js';
import { formatMessage } from '../../present/index.js';
import { followUntilInterrupted } from '../follow.js';
import { inertJson, inertLine } from '../../lib/index.js';
import type { ContextFor } from '../context.js';

export function registerInboxCommand(program: Command, contextFor: ContextFor): void {
  program
    .command('inbox <agent>')
    .description("an agent's unread messages, without consuming them")
    .option('--json', 'one JSON object per line')
    .option('--follow', 'keep printing messages as they arrive')
    .action(async (agent: string, options: { json?: boolean; follow?: boolean }, command: Command) => {
      const context = contextFor(command);
      await context.requireAgent(agent);
      const printed = new Set<string>();
      const print = (messages: readonly Envelope[]) => {
        for (const message of messages) {
          if (printed.has(message.id)) continue;
          printed.add(message.id);
          process.stdout.write(`${options.json ? inertJson(message) : formatMessage(message)}\n`);
        }
      };
      const showWaiting = async () => {
        const { messages, problems } = await context.store.mailboxes.peek(agent);
        for (const problem of problems) process.stderr.write(`teams: ${inertLine(`unreadable entry ${problem.ref}: ${problem.reason}`)}\n`);
        print(messages);
        return messages.length;
      };
      if (!options.follow) {
        const waiting = await showWaiting();
        if (!options.json && waiting === 0) process.stdout.write(`no unread messages for ${agent}\n`);
        return;
      }
      await followUntilInterrupted(async () => {
        await showWaiting();
        const subscription = await context.store.mailboxes.observe(agent, print, { from: 'unread' });
        return () => subscription.close();
      });
    });
}
