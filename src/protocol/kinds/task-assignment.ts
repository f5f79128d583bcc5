import * as z from 'zod';
import { envelopeOf } from '../fields.js';
import { defineKind } from './spec.js';
import { colon, header } from './text.js';

const TaskAssignment = envelopeOf('task_assignment', {
  task_id: z.string().min(1),
  subject: z.string().min(1),
  description: z.string(),
  /** Assigned on the board but still pending (not a spawn's task, which starts in progress): the teammate claims it first. */
  claim: z.literal(true).optional(),
});

/**
 * The exact calls that take the task up and close it, with its id: the task is the teammate's
 * to close (the lead hears of it at once), and a spawn's task is not done until it does.
 */
function howToClose(e: z.output<typeof TaskAssignment>): string {
  const id = JSON.stringify(e.task_id);
  const claim = e.claim ? `Claim it with task_claim(task_id=${id}) when you start it. ` : '';
  return `${claim}When its work is done, close it with task_update(task_id=${id}, status="completed", result="what came of it"), or status="failed" with why if it cannot be done.`;
}

function notice(e: z.output<typeof TaskAssignment>): string {
  return `${header(e, e.task_id)} New task "${e.subject}"${colon(e.description)}\n${howToClose(e)}`;
}

/** The lead hands a teammate its task: it waits in the mailbox before the teammate starts. */
export const taskAssignment = defineKind(TaskAssignment, {
  direction: 'from_lead',
  role: { class: 'notification' },
  notice,
  // The harness keeps its own task (a spawn's or respawn's, not one it is to claim) whole through
  // a compaction, and ends it when the teammate stops.
  atTeammate: (e, state) => ({ state, ...(e.claim ? {} : { task: { id: e.task_id, subject: e.subject, description: e.description } }), notice: notice(e) }),
  line: (e) => `assigns task "${e.subject}" (${e.task_id})`,
});
