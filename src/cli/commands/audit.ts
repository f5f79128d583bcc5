import type { Command } from 'commander';
import { involves, participants, memberNames, type AuditBatch } from '../../store/index.js';
import { inertLine } from '../../lib/index.js';
import { jsonOptions, jsonSink, type OutputFlags } from '../json-output.js';
import { formatAudit } from '../../present/index.js';
import { followUntilInterrupted } from '../follow.js';
import type { ContextFor } from '../context.js';

/**
 * `teams audit`: the audit log. It was `teams log`, too close to `teams logs <name>` (a
 * session's transcript); `log` still works, hidden from the help.
 */
export function registerAuditCommand(program: Command, contextFor: ContextFor): void {
  for (const [name, hidden] of [['audit', false], ['log', true]] as const) addAuditCommand(program.command(name, { hidden }), contextFor);
}

function addAuditCommand(command: Command, contextFor: ContextFor): void {
  jsonOptions(command.description('the audit log: every protocol message and request state change'), 'entries')
    .option('--follow', 'keep printing entries as they are appended (with --jsonl for JSON)')
    .option('--agent <name>', 'only entries involving this agent')
    .action(async (options: OutputFlags & { agent?: string }, command: Command) => {
      const json = jsonSink(options);
      const context = contextFor(command);
      const team = await context.requireTeam();
      const { audit } = context.store;
      // A removed member's history is still worth reading: the log's own names count as known.
      if (options.agent !== undefined) {
        const logged = (await audit.read()).entries.flatMap(participants);
        await context.requireAgent(options.agent, [...memberNames(team), ...logged]);
      }
      const print = ({ entries, problems }: AuditBatch) => {
        for (const problem of problems) process.stderr.write(`teams: ${inertLine(`audit entry set aside (${problem.ref}): ${problem.reason}`)}\n`);
        for (const entry of entries) {
          if (options.agent !== undefined && !involves(entry, options.agent)) continue;
          if (json) json.add(entry);
          else process.stdout.write(`${formatAudit(entry)}\n`);
        }
      };
      if (!options.follow) {
        print(await audit.read());
        return json?.end();
      }
      await followUntilInterrupted(async () => {
        const subscription = await audit.follow(print);
        return () => subscription.close();
      });
    });
}
