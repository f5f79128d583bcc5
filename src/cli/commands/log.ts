import type { Command } from 'commander';
import { involves, participants, readAudit } from '../../store/audit.js';
import { memberNames } from '../../store/roster.js';
import { inertJson, inertLine } from '../../lib/terminal-text.js';
import { watchForHints, createDrainRunner } from '../../files/wakeup.js';
import { formatAudit } from '../../team/format.js';
import { followUntilInterrupted } from '../follow.js';
import type { ContextFor } from '../context.js';

export function registerLogCommand(program: Command, contextFor: ContextFor): void {
  program
    .command('log')
    .description('the audit log: every protocol message and request state change')
    .option('--json', 'one JSON object per line')
    .option('--follow', 'keep printing entries as they are appended')
    .option('--agent <name>', 'only entries involving this agent')
    .action(async (options: { json?: boolean; follow?: boolean; agent?: string }, command: Command) => {
      const context = contextFor(command);
      const team = context.requireTeam();
      // A removed member's history is still worth reading: the log's own names count as known.
      if (options.agent !== undefined) {
        const logged = readAudit(context.paths.audit).entries.flatMap(participants);
        context.requireAgent(options.agent, [...memberNames(team), ...logged]);
      }
      let offset = 0;
      const printNew = () => {
        const read = readAudit(context.paths.audit, offset);
        offset = read.nextOffset;
        for (const problem of read.problems) process.stderr.write(`teams: ${inertLine(`audit line ${problem.line}: ${problem.reason}`)}\n`);
        for (const entry of read.entries) {
          if (options.agent !== undefined && !involves(entry, options.agent)) continue;
          process.stdout.write(`${options.json ? inertJson(entry) : formatAudit(entry)}\n`);
        }
      };
      if (!options.follow) return printNew();
      await followUntilInterrupted(async () => {
        printNew();
        const runner = createDrainRunner(printNew);
        const stopWatching = await watchForHints([context.paths.audit], () => runner.hint());
        // An append between the first read and the watcher becoming ready would otherwise wait for the next one.
        runner.hint();
        return async () => {
          await stopWatching();
          await runner.close();
        };
      });
    });
}
