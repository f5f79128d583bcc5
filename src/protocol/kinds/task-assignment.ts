import * as z from 'zod';
import { envelopeOf } from '../fields.js';
import { defineKind } from './spec.js';
import { colon, header } from './text.js';

const TaskAssignment = envelopeOf('task_assignment', { task_id: z.string().min(1), subject: z.string().min(1), description: z.string() });

function notice(e: z.output<typeof TaskAssignment>): string {
  return `${header(e, e.task_id)} New task "${e.subject}"${colon(e.description)}`;
}

/** The lead hands a teammate its task: it waits in the mailbox before the teammate starts. */
export const taskAssignment = defineKind(TaskAssignment, {
  direction: 'from_lead',
  role: { class: 'notification' },
  notice,
  // The harness keeps the task whole through a compaction, and names it when the teammate stops.
  atTeammate: (e, state) => ({ state, task: { id: e.task_id, subject: e.subject, description: e.description }, notice: notice(e) }),
  line: (e) => `assigns task "${e.subject}" (${e.task_id})`,
});
