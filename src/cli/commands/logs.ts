import { InvalidArgumentError, type Command } from 'commander';
import { participants, memberNames, type LogBatch } from '../../store/index.js';
import { LEAD } from '../../protocol/index.js';
import { jsonSink, type OutputFlags } from '../json-output.js';
import { EMPTY_FOLD, foldLog, formatTranscriptEntry, formatTranscriptLive } from '../../present/index.js';
import { UsageError } from '../errors.js';
import { followUntilInterrupted } from '../follow.js';
import type { ContextFor } from '../context.js';

/** `--tail <lines>`: a positive whole number. */
function parseTail(value: string): number {
  const lines = Number(value);
  if (!/^\d+$/.test(value) || lines <= 0 || !Number.isSafeInteger(lines)) throw new InvalidArgumentError('a positive number of lines');
  return lines;
}

export function registerLogsCommand(program: Command, contextFor: ContextFor): void {
  program
    .command('logs')
    .description("a teammate's session as it worked: its words, tool calls and results, status changes")
    .argument('<name>', 'the teammate')
    .option('--json', 'one JSON array of the lines of its log')
    .option('--jsonl', 'one JSON object per line of its log')
    .option('--follow', 'keep printing as the teammate works (with --jsonl for JSON)')
    .option('--tail <lines>', 'only the last this many lines of its log', parseTail)
    .action(async (name: string, options: OutputFlags & { tail?: number }, command: Command) => {
      const json = jsonSink(options);
      const context = contextFor(command);
      if (name === LEAD) {
        throw new UsageError('the lead keeps no such log: its conversation is in the REPL, and its past sessions in `teams sessions`');
      }
      const team = await context.requireTeam();
      // A removed member is no mistyped name: the audit log's names count as known (its log went with it).
      const logged = (await context.store.audit.read()).entries.flatMap(participants);
      const agent = await context.requireAgent(name, [...memberNames(team), ...logged].filter((known) => known !== LEAD));

      let fold = EMPTY_FOLD;
      let first = true;
      const print = (batch: LogBatch) => {
        // The first read is from the start: nothing in it and nothing skipped is an empty log.
        if (first && batch.lines.length === 0 && !batch.skipped) process.stderr.write(`teams: ${agent} has logged nothing yet\n`);
        if (first && batch.skipped) process.stderr.write(`teams: the start of ${agent}'s log is left out (--tail)\n`);
        first = false;
        if (json) {
          for (const line of batch.lines) json.add(line);
          return;
        }
        // Text still streaming waits for the end of its block: what is printed is final.
        const folded = foldLog(fold, batch.lines);
        fold = folded.fold;
        for (const entry of folded.entries) process.stdout.write(`${formatTranscriptEntry(entry, agent)}\n`);
      };
      const from = { tail: options.tail };
      if (!options.follow) {
        print(await context.store.agentLogs.read(agent, from));
        // A one-off read shows what was under way where the log ends, marked as such.
        if (json) json.end();
        else for (const line of formatTranscriptLive(fold)) process.stdout.write(`${line}\n`);
        return;
      }
      await followUntilInterrupted(async () => {
        const subscription = await context.store.agentLogs.follow(agent, print, from);
        return () => subscription.close();
      });
    });
}
