import * as z from 'zod';
import { envelopeOf } from '../fields.js';
import { defineKind } from './spec.js';
import { colon, header } from './text.js';

/** The lead hands a teammate its task: it waits in the mailbox before the teammate starts. */
export const taskAssignment = defineKind(
  envelopeOf('task_assignment', { task_id: z.string().min(1), subject: z.string().min(1), description: z.string() }),
  {
    direction: 'from_lead',
    role: { class: 'notification' },
    notice: (e) => `${header(e, e.task_id)} New task "${e.subject}"${colon(e.description)}`,
    line: (e) => `assigns task "${e.subject}" (${e.task_id})`,
  },
);
