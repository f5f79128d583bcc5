import type { Envelope } from '../protocol/messages.js';
import { renderForModel } from '../protocol/notices.js';

/** Text flattened to one line and cut to `max` characters. */
export function oneLine(text: string, max = 100): string {
  const flat = text.replace(/\s+/g, ' ').trim();
  return flat.length <= max ? flat : `${flat.slice(0, max - 1)}…`;
}

/** A tool's input as a short `key=value` line: the whole JSON is rarely worth a screen line. */
export function toolInput(input: Record<string, unknown>, max = 80): string {
  const parts = Object.entries(input).map(([key, value]) => `${key}=${typeof value === 'string' ? value : JSON.stringify(value)}`);
  return oneLine(parts.join(' '), max);
}

/** What a teammate's message says, in the words a person scanning the transcript wants. */
export function messageText(envelope: Envelope): string {
  switch (envelope.type) {
    case 'message':
    case 'broadcast':
      return envelope.text;
    case 'task_notification':
      return `task ${envelope.status}: ${envelope.summary}`;
    case 'idle_notification':
      return envelope.summary ? `idle: ${envelope.summary}` : `idle (${envelope.reason})`;
    case 'plan_approval_request':
      return `asks to approve a plan (${envelope.request_id})`;
    case 'permission_request':
      return `asks permission: ${envelope.tool_name} ${toolInput(envelope.tool_input, 60)} (${envelope.request_id})`;
    case 'finish_request':
      return `asks to finish: ${envelope.summary} (${envelope.request_id})`;
    case 'shutdown_response':
      return envelope.approve ? 'agreed to shut down' : `refused to shut down${envelope.reason ? `: ${envelope.reason}` : ''}`;
    default:
      return renderForModel(envelope);
  }
}

/** "4:59" until a deadline, "0:00" once it has passed: the approval queue's countdown. */
export function countdown(deadlineIso: string, now: number): string {
  const seconds = Math.max(0, Math.ceil((Date.parse(deadlineIso) - now) / 1000));
  const minutes = Math.floor(seconds / 60);
  if (minutes >= 60) return `${Math.floor(minutes / 60)}h${String(minutes % 60).padStart(2, '0')}m`;
  return `${minutes}:${String(seconds % 60).padStart(2, '0')}`;
}

/** 12345 → "12.3k": header-sized token counts. */
export function tokens(count: number): string {
  if (count < 1000) return String(count);
  if (count < 1_000_000) return `${(count / 1000).toFixed(1)}k`;
  return `${(count / 1_000_000).toFixed(2)}M`;
}
