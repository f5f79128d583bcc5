import type { Command } from 'commander';
import { RequestState, REQUEST_STATES, type RequestRecord } from '../../protocol/index.js';
import { decisionDraft, hiddenFromAgents } from '../../team/index.js';
import { formatRequests, previewRequest } from '../../present/index.js';
import { UsageError } from '../errors.js';
import { inertJson, inertLine, inertText } from '../../lib/index.js';
import type { CliContext, ContextFor } from '../context.js';
import { askLead } from '../lead-client.js';
import { jsonSink, type OutputFlags } from '../json-output.js';

async function decide(context: CliContext, requestId: string, approve: boolean, note: string | undefined, always = false): Promise<void> {
  await context.requireTeam();
  // The running lead holds the key that signs decisions: it decides, and teammates can verify.
  const viaLead = await askLead(context, { op: 'decide', request_id: requestId, approve, note, always });
  if (viaLead !== undefined) {
    process.stdout.write(`${inertText(viaLead)}\n`);
    return;
  }
  // No lead: record the decision directly. A request past its deadline is expired first, so it is never approved late.
  await sweep(context);
  const record = await context.store.requests.get(requestId);
  if (!record) throw new UsageError(`unknown request_id '${requestId}' (see \`teams requests\`)`);
  const made = decisionDraft(record, { approve, note });
  if (!made.ok) throw new UsageError(made.error);
  await context.bus.send(made.draft);
  process.stdout.write(`${approve ? 'approved' : 'rejected'} ${record.request_id} (${record.kind} request from ${record.from})\n`);
}

/**
 * Expire what is overdue. Expiry writes decisions, and only the process holding the lead's
 * key may write those while a lead runs (its teammates refuse anything unsigned): ask it.
 */
async function sweep(context: CliContext): Promise<void> {
  if ((await askLead(context, { op: 'sweep' })) === undefined) await context.bus.sweepExpired();
}

/**
 * `teams requests <id>`: one request whole. A permission request shows what it will do, its
 * file read from the working directory this command runs in (the team's, as a rule).
 */
async function showRequest(context: CliContext, requestId: string, json: boolean): Promise<void> {
  const record = await context.store.requests.get(requestId);
  if (!record) throw new UsageError(`unknown request_id '${inertLine(requestId)}' (see \`teams requests\`)`);
  const preview = await previewRequest(record, { cwd: process.cwd(), hidden: hiddenFromAgents(context.paths) });
  if (json) {
    process.stdout.write(`${inertJson({ ...record, ...(preview ? { preview } : {}) })}\n`);
    return;
  }
  process.stdout.write(`${describeRecord(record)}\n`);
  // The preview's lines are inert already; the summary and the note are an agent's words.
  const body = preview ? preview.map((l) => `  ${l.text}`).join('\n') : inertText(record.summary).replace(/^/gm, '  ');
  process.stdout.write(`${body}\n`);
  if (record.note) process.stdout.write(`note: ${inertText(record.note)}\n`);
}

function describeRecord(r: RequestRecord): string {
  const decided = r.decided_at ? `, ${r.state} ${r.decided_at}${r.decided_by ? ` by ${r.decided_by}` : ''}` : `, ${r.state} until ${r.deadline_at}`;
  return inertLine(`${r.request_id}: ${r.kind} request from ${r.from} to ${r.to}, opened ${r.created_at}${decided}`);
}

export function registerRequestCommands(program: Command, contextFor: ContextFor): void {
  program
    .command('requests [request_id]')
    .description('list requests, oldest first; with a request_id, that one whole, a permission with a preview of what it will do')
    .option('--json', 'one JSON document: the list as an array, or the one request')
    .option('--jsonl', 'the list as one JSON object per line')
    .option('--state <state>', `only requests in this state (${REQUEST_STATES.join(', ')})`)
    .action(async (requestId: string | undefined, options: OutputFlags & { state?: string }, command: Command) => {
      const json = jsonSink(options);
      const state = options.state === undefined ? undefined : RequestState.safeParse(options.state);
      if (state && !state.success) throw new UsageError(`--state must be one of ${REQUEST_STATES.join(', ')}, not '${options.state}'`);
      if (requestId !== undefined && state) throw new UsageError('--state lists requests; it does not go with a request_id');
      const context = contextFor(command);
      await context.requireTeam();
      await sweep(context);
      if (requestId !== undefined) return showRequest(context, requestId, options.json === true);
      const records = await context.store.requests.list({ state: state?.data });
      if (!json) return void process.stdout.write(`${formatRequests(records)}\n`);
      for (const record of records) json.add(record);
      json.end();
    });

  program
    .command('approve <request_id>')
    .description("approve a pending plan, permission or teammate-shutdown request")
    .option('--feedback <text>', 'what to tell the teammate')
    .option('--always', 'a permission: the agent that asked may repeat the same call unasked for the rest of the session')
    .action((requestId: string, options: { feedback?: string; always?: boolean }, command: Command) =>
      decide(contextFor(command), requestId, true, options.feedback, options.always));

  program
    .command('reject <request_id>')
    .description('reject a pending plan, permission or teammate-shutdown request')
    .requiredOption('--reason <text>', 'why, or what to do instead')
    .action((requestId: string, options: { reason: string }, command: Command) => {
      if (options.reason.trim() === '') throw new UsageError('--reason is empty');
      return decide(contextFor(command), requestId, false, options.reason);
    });
}
