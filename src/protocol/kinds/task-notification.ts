import * as z from 'zod';
import { envelopeOf, TaskStatus, Usage } from '../fields.js';
import { defineKind } from './spec.js';

/**
 * A teammate's task ended (completed, failed, stopped): the lead's model reads it as the
 * <task-notification> block of Claude Code's coordinator mode.
 */

const Notification = envelopeOf('task_notification', {
  task_id: z.string().min(1),
  status: TaskStatus,
  summary: z.string(),
  result: z.string().optional(),
  // Strict like the envelope, so a misspelled usage field is refused rather than dropped.
  usage: z.strictObject(Usage.shape).optional(),
});

export type TaskNotification = Pick<z.output<typeof Notification>, 'task_id' | 'status' | 'summary' | 'result' | 'usage'>;

/** The summary line Claude Code's coordinator mode writes for each outcome (seed 000). */
export function taskNotificationSummary(status: TaskStatus, description: string, error?: string): string {
  switch (status) {
    case 'completed':
      return `Agent "${description}" completed`;
    case 'failed':
      return `Agent "${description}" failed: ${error || 'Unknown error'}`;
    case 'stopped':
      return `Agent "${description}" was stopped`;
  }
}

function escapeXml(text: string): string {
  return text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
}

/**
 * The block injected into the lead's conversation when a task ends. Text is escaped so a
 * result containing markup cannot close the block early or forge a second one.
 */
export function renderTaskNotification(n: TaskNotification): string {
  const lines = [
    '<task-notification>',
    `<task-id>${escapeXml(n.task_id)}</task-id>`,
    `<status>${n.status}</status>`,
    `<summary>${escapeXml(n.summary)}</summary>`,
  ];
  if (n.result !== undefined) lines.push(`<result>${escapeXml(n.result)}</result>`);
  if (n.usage) {
    const u = n.usage;
    const total = u.input_tokens + u.output_tokens + (u.cache_read_tokens ?? 0) + (u.cache_write_tokens ?? 0);
    const toolUses = u.tool_uses === undefined ? '' : `<tool_uses>${u.tool_uses}</tool_uses>`;
    const duration = u.duration_ms === undefined ? '' : `<duration_ms>${Math.round(u.duration_ms)}</duration_ms>`;
    lines.push(`<usage><total_tokens>${total}</total_tokens>${toolUses}${duration}</usage>`);
  }
  lines.push('</task-notification>');
  return lines.join('\n');
}

export const taskNotification = defineKind(Notification, {
  direction: 'to_lead',
  role: { class: 'notification' },
  notice: (e) => renderTaskNotification(e),
  line: (e) => `task ${e.status}: ${e.summary}`,
});
