import { readControlToken, sendControl, type LeadOp } from '../lead/index.js';
import type { CliContext } from './context.js';
import { UsageError } from './errors.js';

/**
 * Send an op to the team's running lead. Returns its message, or undefined when no
 * lead is running; a refusal is a usage error (exit 2), any other failure exit 1.
 */
export async function askLead(context: CliContext, op: LeadOp): Promise<string | undefined> {
  await context.requireTeam();
  const token = readControlToken(context.paths.controlToken);
  if (token === undefined) return undefined;
  const reply = await sendControl(context.paths.controlSocket, token, op);
  if (!reply) return undefined;
  if (reply.ok) return reply.message;
  if (reply.refused) throw new UsageError(reply.error);
  throw new Error(reply.error);
}

export function noLead(context: CliContext, what: string): never {
  throw new UsageError(`no lead is running for team '${context.paths.team}': ${what} needs one (start \`teams\` or \`teams run <prompt>\`)`);
}
