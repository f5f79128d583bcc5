import type { Command } from 'commander';
import type { SessionSummary } from '../../store/index.js';
import { inertJson, inertLine } from '../../lib/index.js';
import type { ContextFor } from '../context.js';

/** Two lines a session; only the preview is free text (ids, times and names were parsed). */
function row(s: SessionSummary): string {
  const preview = s.first_prompt === '' ? '(no prompt)' : `"${inertLine(s.first_prompt)}"`;
  return `${s.id}  started ${s.started_at}  last active ${s.last_active}  ${s.records} records  agents ${s.agents.join(',') || '-'}\n    ${preview}`;
}

export function registerSessionsCommand(program: Command, contextFor: ContextFor): void {
  program
    .command('sessions')
    .description('past sessions of the team, oldest first: resume one with --continue (the latest) or --resume <id>')
    .option('--json', 'one JSON object')
    .action(async (options: { json?: boolean }, command: Command) => {
      const context = contextFor(command);
      const { sessions, problems } = await context.store.sessions.list();
      for (const problem of problems) process.stderr.write(`teams: unreadable ${inertLine(problem.ref)}: ${inertLine(problem.reason)}\n`);
      if (options.json) {
        process.stdout.write(`${inertJson({ team: context.paths.team, sessions })}\n`);
        return;
      }
      if (sessions.length === 0) {
        process.stdout.write(`no sessions in team '${context.paths.team}' yet: \`teams\` or \`teams run <prompt>\` starts one\n`);
        return;
      }
      process.stdout.write(`${sessions.map(row).join('\n')}\n`);
    });
}
