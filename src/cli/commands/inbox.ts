import type { Command } from 'commander';
import type { Envelope } from '../../protocol/index.js';
import { formatMessage } from '../../present/index.js';
import { followUntilInterrupted } from '../follow.js';
import { inertLine } from '../../lib/index.js';
import { jsonOptions, jsonSink, type OutputFlags } from '../json-output.js';
import type { ContextFor } from '../context.js';

export function registerInboxCommand(program: Command, contextFor: ContextFor): void {
  jsonOptions(program.command('inbox <agent>').description("an agent's unread messages, without consuming them"), 'messages')
    .option('--follow', 'keep printing messages as they arrive (with --jsonl for JSON)')
    .action(async (agent: string, options: OutputFlags, command: Command) => {
      const json = jsonSink(options);
      const context = contextFor(command);
      await context.requireAgent(agent);
      const printed = new Set<string>();
      const print = (messages: readonly Envelope[]) => {
        for (const message of messages) {
          if (printed.has(message.id)) continue;
          printed.add(message.id);
          if (json) json.add(message);
          else process.stdout.write(`${formatMessage(message)}\n`);
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
        json?.end();
        if (!json && waiting === 0) process.stdout.write(`no unread messages for ${agent}\n`);
        return;
      }
      await followUntilInterrupted(async () => {
        await showWaiting();
        const subscription = await context.store.mailboxes.observe(agent, print, { from: 'unread' });
        return () => subscription.close();
      });
    });
}
