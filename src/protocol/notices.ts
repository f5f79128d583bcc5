import type { Envelope, EnvelopeOf, TaskStatus } from './messages.js';

/**
 * Protocol messages never reach a model as raw JSON (seed 002: isProtocolMessage is the
 * filter): each kind becomes one short notice saying who wants what and how to answer,
 * with the request id spelled out so the answer correlates.
 */

/** End a clause with a full stop unless it already ends a sentence. */
function sentence(text: string): string {
  const trimmed = text.trim();
  return /[.!?…:]$/.test(trimmed) ? trimmed : `${trimmed}.`;
}

/** ": reason" when there is one, else nothing: optional texts read naturally either way. */
function colon(text: string | undefined): string {
  const trimmed = text?.trim() ?? '';
  return trimmed.length > 0 ? `: ${trimmed}` : '';
}

function header(envelope: Envelope, id?: string): string {
  return `[${envelope.type}${id === undefined ? '' : ` ${id}`} from ${envelope.from}]`;
}

/** Tool inputs can be large; the decider needs their gist, the full input stays in the log. */
const MAX_TOOL_INPUT_CHARS = 1000;

function toolInput(input: Record<string, unknown>): string {
  const json = JSON.stringify(input);
  return json.length <= MAX_TOOL_INPUT_CHARS ? json : `${json.slice(0, MAX_TOOL_INPUT_CHARS - 1)}…`;
}

/** The notice a model reads for a message addressed to it. */
export function renderForModel(envelope: Envelope): string {
  const e = envelope;
  switch (e.type) {
    case 'message':
      return `From ${e.from}: ${e.text}`;
    case 'broadcast':
      return `From ${e.from} (to everyone): ${e.text}`;
    case 'shutdown_request':
      return (
        `${header(e, e.request_id)} ${sentence(`The lead asks you to shut down${colon(e.reason)}`)} ` +
        `Answer with shutdown_response(request_id="${e.request_id}", approve=true) once your work is saved, ` +
        `or approve=false with a reason to keep working.`
      );
    case 'shutdown_response':
      return e.approve
        ? `${header(e, e.request_id)} ${sentence(`${e.from} agreed to shut down${colon(e.reason)}`)}`
        : `${header(e, e.request_id)} ${sentence(`${e.from} refused to shut down${colon(e.reason)}`)} It keeps working.`;
    case 'finish_request':
      return (
        `${header(e, e.request_id)} ${sentence(`${e.from} says its work is done and asks to be ended${colon(e.summary)}`)} ` +
        `Answer with finish_response(request_id="${e.request_id}", approve=true) to end it, ` +
        `or approve=false with feedback saying what to continue with.`
      );
    case 'finish_response':
      return e.approve
        ? `${header(e, e.request_id)} ${sentence(`The lead accepted your work${colon(e.feedback)}`)} Your session ends now; stop here.`
        : `${header(e, e.request_id)} ${sentence(`The lead asks you to continue${colon(e.feedback)}`)}`;
    case 'plan_approval_request':
      return (
        `${header(e, e.request_id)} ${e.from} asks you to approve this plan:\n${e.plan.trim()}\n` +
        `Answer with plan_approval_response(request_id="${e.request_id}", approve=true|false, feedback="…").`
      );
    case 'plan_approval_response': {
      if (!e.approve) {
        // Seed 000: a rejection without feedback still tells the teammate what to do.
        const feedback = e.feedback?.trim() || 'Plan needs revision';
        return `${header(e, e.request_id)} ${sentence(`Your plan was rejected: ${feedback}`)} Revise it and submit it again.`;
      }
      const mode = e.permission_mode ? ` (permission mode: ${e.permission_mode})` : '';
      return `${header(e, e.request_id)} ${sentence(`Your plan was approved${mode}${colon(e.feedback)}`)} Go ahead.`;
    }
    case 'permission_request':
      return (
        `${header(e, e.request_id)} ${sentence(`${e.from} asks permission to use ${e.tool_name}${colon(e.reason)}`)} ` +
        `Input: ${toolInput(e.tool_input)}\n` +
        `Answer with permission_response(request_id="${e.request_id}", approve=true|false, feedback="…").`
      );
    case 'permission_response':
      return e.approve
        ? `${header(e, e.request_id)} ${sentence(`Permission granted${colon(e.feedback)}`)}`
        : `${header(e, e.request_id)} ${sentence(`Permission denied${colon(e.feedback)}`)} Do not use that tool this way; find another way or ask the lead.`;
    case 'task_assignment':
      return `${header(e, e.task_id)} New task "${e.subject}"${colon(e.description)}`;
    case 'idle_notification':
      return `${header(e)} ${sentence(`${e.from} is idle${colon(e.reason)}`)}${e.summary?.trim() ? ` Last: ${e.summary.trim()}` : ''}`;
    case 'task_notification':
      return renderTaskNotification(e);
  }
}

export type TaskNotification = Pick<EnvelopeOf<'task_notification'>, 'task_id' | 'status' | 'summary' | 'result' | 'usage'>;

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
 * The <task-notification> block injected into the lead's conversation when a task ends
 * (Claude Code coordinator mode). Text is escaped so a result containing markup cannot
 * close the block early or forge a second one.
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
