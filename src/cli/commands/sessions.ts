import type { Command } from 'commander';
import type { SessionSummary } from '../../store/index.js';
import { inertJson, inertLine } from '../../lib/index.js';
import { spentByModel, tokensOf } from '../../model/index.js';
import { dollars } from '../../present/index.js';
import type { ContextFor } from '../context.js';

/** A session with what its model calls used and cost, every agent's, as its journals record them. */
function withSpending(s: SessionSummary): SessionSummary & { tokens: number; cost_usd: number | null } {
  const { usage, cost } = spentByModel(s.tokens_by_model);
  return { ...s, tokens: tokensOf(usage), cost_usd: cost ?? null };
}

/** Two lines a session; only the preview is free text (ids, times and names were parsed). */
function row(s: ReturnType<typeof withSpending>): string {
  const preview = s.first_prompt === '' ? '(no prompt)' : `"${inertLine(s.first_prompt)}"`;
  return `${s.id}  started ${s.started_at}  last active ${s.last_active}  ${s.records} records  ${s.tokens} tokens  ${dollars(s.cost_usd ?? undefined)}  agents ${s.agents.join(',') || '-'}\n    ${preview}`;
}

export function registerSessionsCommand(program: Command, contextFor: ContextFor): void {
  program
    .command('sessions')
    .description('past sessions of the team, oldest first: resume one with --continue (the latest) or --resume <id>')
    .option('--json', 'one JSON object')
    .action(async (options: { json?: boolean }, command: Command) => {
      const context = contextFor(command);
      const listed = await context.store.sessions.list();
      const { problems } = listed;
      const sessions = listed.sessions.map(withSpending);
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
