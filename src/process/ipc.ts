import * as z from 'zod';
import { AgentName } from '../protocol/index.js';
import { CompactReason } from '../store/index.js';

/**
 * The IPC channel between the lead's supervisor and a teammate it started. It is the one
 * channel nothing else can write to: an agent's commands run in a sandbox that sees neither
 * end of it. So it carries what must not come from a file: the keys and the command groups.
 */
const Pid = z.number().int().min(2);

/** What a teammate tells its lead. */
export const ChildSignal = z.discriminatedUnion('type', [
  /** First thing at start, long before it can send a message: the key that signs them all. */
  z.object({ type: z.literal('key'), public_key: z.string().min(1) }),
  /** Subscribed to its mailbox. */
  z.object({ type: z.literal('ready') }),
  /** A command's process group, for the supervisor to end if the teammate dies first. */
  z.object({ type: z.literal('command_started'), pgid: Pid, start_time: z.string().min(1) }),
  z.object({ type: z.literal('command_ended'), pgid: Pid }),
  z.object({ type: z.literal('keys_ack'), seq: z.number().int().nonnegative() }),
  /** It compacted its conversation: for the lead's transcript (the teammate audits it itself). */
  z.object({
    type: z.literal('compacted'),
    before: z.number().int().nonnegative(),
    after: z.number().int().nonnegative(),
    reason: CompactReason,
  }),
]);
export type ChildSignal = z.infer<typeof ChildSignal>;

/** What the lead tells a teammate: every running member's public key; to compact its conversation (/compact). */
export const ParentSignal = z.discriminatedUnion('type', [
  z.object({ type: z.literal('keys'), seq: z.number().int().nonnegative(), keys: z.record(AgentName, z.string().min(1)) }),
  /** /compact [instructions]: what the human wants the summary to keep. */
  z.object({ type: z.literal('compact'), instructions: z.string().max(2000).optional() }),
]);
export type ParentSignal = z.infer<typeof ParentSignal>;

/** To the supervisor, over the IPC channel that only the two processes share (a teammate's side). */
export function tellLead(signal: ChildSignal): void {
  // Once the lead is gone there is nobody to tell, and a send would fail as an uncaught error.
  if (process.connected) process.send?.(signal);
}
