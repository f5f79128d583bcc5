import * as z from 'zod';
import { envelopeOf } from '../fields.js';
import { defineKind } from './spec.js';
import { summarize } from './text.js';

/**
 * A project hook (the human's own command in the settings file) said no to what a teammate
 * did: it may not stop yet (`teammate_idle`), or its task stays in progress (`task_completed`).
 * The hook's stderr is the feedback its model reads, and it goes back to work. Only the lead's
 * process runs hooks, and it signs this, so no teammate can fake a hook's verdict to another.
 */
const HookFeedback = envelopeOf('hook_feedback', {
  event: z.enum(['teammate_idle', 'task_completed']),
  command: z.string().min(1),
  feedback: z.string().min(1, 'the feedback is empty'),
  /** The task kept in progress, for `task_completed`. */
  task_id: z.string().min(1).optional(),
});

function what(e: z.output<typeof HookFeedback>): string {
  return e.event === 'task_completed' ? `${e.task_id ? `Task ${e.task_id}` : 'Your task'} stays in progress: the project's hook \`${e.command}\` refused its completion.` : `You are not done yet: the project's hook \`${e.command}\` refused to let you stop.`;
}

export const hookFeedback = defineKind(HookFeedback, {
  direction: 'from_lead',
  role: { class: 'notification' },
  notice: (e) => `[hook_feedback on ${e.event}] ${what(e)} Address what it says, then carry on:\n${e.feedback}`,
  line: (e) => `hook \`${summarize(e.command, 40)}\` blocked ${e.event}${e.task_id ? ` of ${e.task_id}` : ''}: ${summarize(e.feedback)}`,
});
