import { Refused, errorMessage } from '../lib/index.js';
import { SendRefused } from '../team/index.js';
import type { ControlReply } from './control.js';
import type { LeadOp, LeadReply } from './ops.js';

/**
 * An op from another terminal, carried out by the same `submit` as the REPL's, its reply put
 * in the socket's words: a refusal (a usage error there, exit 2) told from a failure.
 */
export async function answerOverSocket(submit: (op: LeadOp) => Promise<LeadReply>, op: LeadOp, failed: (what: string, error: unknown) => void): Promise<ControlReply> {
  if (op.op === 'quit') {
    // Stopping closes this socket, which waits for this very connection: answered first.
    submit(op).catch((error: unknown) => failed('stopping the team', error));
    return { ok: true, message: 'stopping the team' };
  }
  try {
    return { ok: true, message: (await submit(op)).message };
  } catch (error) {
    return { ok: false, error: errorMessage(error), refused: error instanceof Refused || error instanceof SendRefused };
  }
}
