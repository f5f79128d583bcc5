import { replyTo, type LeadOp, type ReplyTo } from '../lead/index.js';
import type { ReplRuntime } from './runtime.js';

/** Submit an op and read its reply as the one that op gets (the REPL words some replies its own way). */
export async function submit<O extends LeadOp>(runtime: Pick<ReplRuntime, 'submit'>, op: O): Promise<ReplyTo<O['op']>> {
  return replyTo<O['op']>(op.op, await runtime.submit(op));
}
