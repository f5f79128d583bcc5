import type { ContentBlockParam, MessageParam, TextBlockParam } from '@anthropic-ai/sdk/resources/messages';
import { ModelError } from '../model/index.js';

/**
 * The pure half of compaction: where to cut a conversation, what the summariser reads, and
 * what replaces the older turns. No model and no clock here, so every rule is tested as data.
 */

/** Opens the message that stands for the older turns: the model must not take it for the human's words. */
export const SUMMARY_HEADER =
  '[Summary of earlier work. The conversation before this point was compacted to fit your context window; this summary of it was written for you from the full conversation.]';
export const STATE_HEADER = '[Protocol state now, from the runtime (authoritative where it differs from the summary):]';

/**
 * A compaction must pay for itself: a summary that would not save at least this share of the
 * conversation is not put in (a small window would otherwise compact again and again, each time
 * paying for a summary, with no gain, and a long summary of a short past would grow it).
 */
export const MIN_SAVED_SHARE = 0.2;

/** Whether replacing a conversation of `beforeChars` with one of `afterChars` saves enough to do it. */
export function savesEnough(beforeChars: number, afterChars: number): boolean {
  return afterChars <= beforeChars * (1 - MIN_SAVED_SHARE);
}

/** The line said when a compaction is skipped for saving too little. */
export function skippedCompaction(beforeChars: number, afterChars: number): string {
  const saved = Math.round((1 - afterChars / beforeChars) * 100);
  const what = saved <= 0 ? `would make the conversation ${-saved}% larger` : `would save only ${saved}%`;
  return `compaction skipped: the summary ${what} (it must save at least ${MIN_SAVED_SHARE * 100}%); the conversation is kept as it was`;
}

/**
 * Whether the threshold calls for a compaction now. After one skipped at `skippedAtChars`, not
 * again until the conversation has grown by the share a compaction must save: the same past
 * would be summarised to the same no-gain again.
 */
export function thresholdDue(full: boolean, chars: number, skippedAtChars: number | undefined): boolean {
  return full && (skippedAtChars === undefined || chars >= skippedAtChars * (1 + MIN_SAVED_SHARE));
}

/** Rough size of messages in characters, the unit the offline model estimates tokens from (4 per token). */
export function sizeOf(messages: readonly MessageParam[]): number {
  let chars = 0;
  for (const message of messages) chars += JSON.stringify(message.content).length;
  return chars;
}

function blocksOf(content: MessageParam['content']): ContentBlockParam[] {
  return typeof content === 'string' ? [{ type: 'text', text: content }] : content;
}

function holdsToolResult(message: MessageParam): boolean {
  return blocksOf(message.content).some((block) => block.type === 'tool_result');
}

/**
 * Where the kept tail starts: the index of its first message, or undefined when nothing can
 * be cut. The tail keeps the API's rules by construction: it starts either at an assistant
 * message (the summary, a user message, goes before it) or at a user message with no
 * tool_result (whose tool_use would be cut away); it runs to the end, so every tool_use in it
 * keeps its tool_result and roles alternate as they did. The tail is the longest such one
 * within `keepChars`, or else the shortest there is: the latest turns are never summarised
 * away for being large.
 */
export function chooseCut(messages: readonly MessageParam[], keepChars: number): number | undefined {
  let best: number | undefined;
  let tail = 0;
  for (let i = messages.length - 1; i >= 1; i--) {
    const message = messages[i] as MessageParam;
    tail += sizeOf([message]);
    const valid = message.role === 'assistant' || !holdsToolResult(message);
    if (!valid) continue;
    if (best !== undefined && tail > keepChars) break;
    best = i;
  }
  return best;
}

/** The older turns replaced by one marked summary (and the runtime's protocol state), then the tail as it was. */
export function buildReplacement(summary: string, protocolState: string, tail: readonly MessageParam[]): MessageParam[] {
  const parts = [SUMMARY_HEADER, summary.trim()];
  if (protocolState.trim() !== '') parts.push(STATE_HEADER, protocolState.trim());
  const marked: TextBlockParam = { type: 'text', text: parts.join('\n\n') };
  const [first, ...rest] = tail;
  // Two user messages in a row would break alternation: the summary joins the tail's first.
  if (first?.role === 'user') return [{ role: 'user', content: [marked, ...blocksOf(first.content)] }, ...rest];
  return [{ role: 'user', content: [marked] }, ...tail];
}

function toolResultText(content: unknown): string {
  if (typeof content === 'string') return content;
  if (!Array.isArray(content)) return '';
  return content.flatMap((part: { type?: string; text?: string }) => (part.type === 'text' && part.text !== undefined ? [part.text] : [`[${part.type ?? 'block'}]`])).join('\n');
}

/**
 * The older turns as plain text for the summariser. Text, not the messages themselves: the
 * summarising call offers no tools, and the API refuses tool blocks in a request without them.
 */
export function transcriptOf(messages: readonly MessageParam[]): string {
  const lines: string[] = [];
  for (const message of messages) {
    for (const block of blocksOf(message.content)) {
      if (block.type === 'text') lines.push(`${message.role === 'user' ? 'User' : 'Agent'}: ${block.text}`);
      else if (block.type === 'tool_use') lines.push(`Agent called ${block.name} ${JSON.stringify(block.input)}`);
      else if (block.type === 'tool_result') lines.push(`Tool result${block.is_error === true ? ' (error)' : ''}: ${toolResultText(block.content)}`);
      // Thinking and other blocks are the agent's own scratch work: the summary is about the work.
    }
  }
  return lines.join('\n');
}

/** The summariser's one user message; `dropped` older messages did not fit even its own window. */
export function summaryRequest(messages: readonly MessageParam[], dropped: number): string {
  const note = dropped > 0 ? `(The oldest ${dropped} messages were too long to include and are left out.)\n` : '';
  return `${note}<conversation>\n${transcriptOf(messages)}\n</conversation>\n\nWrite the summary now.`;
}

/**
 * The API's answers to a request too long for the model's window: 400 "prompt is too long: N
 * tokens > M maximum", or, when the prompt fits but not with the reply's room, "input length and
 * `max_tokens` exceed context limit: N + R > M, …".
 */
export function isContextOverflow(error: unknown): error is ModelError {
  return error instanceof ModelError && error.status === 400 && /prompt is too long|exceed context limit/i.test(error.message);
}

/** The window the API named in its refusal (M), when it named one: truer than any catalog. */
export function overflowLimit(error: ModelError): number | undefined {
  const match = /> (\d+)(?: maximum|,)/.exec(error.message);
  return match ? Number(match[1]) : undefined;
}
