import type {
  ContentBlock,
  Message,
  RawMessageStartEvent,
  RawMessageStreamEvent,
  StopReason,
  Usage,
} from '@anthropic-ai/sdk/resources/messages';
import type { ScriptedReply } from './match.js';
import { estimateTokens, type InputUsage } from './usage-estimate.js';

/**
 * Messages API response shapes for a scripted reply. Typed against the SDK's own
 * response types, so a field the SDK expects cannot silently go missing.
 */

export type ReplyMeta = { id: string; model: string; input: InputUsage };

/** Pieces of a few words each; joined they give the text back exactly. */
export function chunkText(text: string, target = 16): string[] {
  const chunks: string[] = [];
  let current = '';
  for (const word of text.match(/\S+\s*|\s+/g) ?? []) {
    current += word;
    if (current.length >= target) {
      chunks.push(current);
      current = '';
    }
  }
  if (current.length > 0) chunks.push(current);
  return chunks;
}

/** Fixed-size slices, cut anywhere (mid-string, mid-escape) as the API's fragments are. */
export function chunkJson(json: string, size = 20): string[] {
  const chunks: string[] = [];
  for (let i = 0; i < json.length; i += size) chunks.push(json.slice(i, i + size));
  return chunks;
}

export function outputTokens(reply: ScriptedReply): number {
  const text = estimateTokens(reply.text ?? '');
  // A tool call costs its name, its JSON input and some framing.
  const tools = reply.toolUses.reduce((sum, use) => sum + estimateTokens(use.name + JSON.stringify(use.input)) + 8, 0);
  return Math.max(1, text + tools);
}

function stopReason(reply: ScriptedReply): StopReason {
  return reply.toolUses.length > 0 ? 'tool_use' : 'end_turn';
}

function usage(input: InputUsage, output: number): Usage {
  return {
    ...input,
    output_tokens: output,
    cache_creation: { ephemeral_5m_input_tokens: input.cache_creation_input_tokens, ephemeral_1h_input_tokens: 0 },
    inference_geo: null,
    output_tokens_details: null,
    server_tool_use: null,
    service_tier: 'standard',
    speed: null,
  };
}

function message(meta: ReplyMeta, content: ContentBlock[], stop: StopReason | null, output: number): Message {
  return {
    id: meta.id,
    type: 'message',
    role: 'assistant',
    model: meta.model,
    content,
    container: null,
    diagnostics: null,
    stop_details: null,
    stop_reason: stop,
    stop_sequence: null,
    usage: usage(meta.input, output),
  };
}

/** The whole reply as one non-streaming response body. */
export function replyMessage(reply: ScriptedReply, meta: ReplyMeta): Message {
  const content: ContentBlock[] = [];
  if (reply.text !== undefined) content.push({ type: 'text', text: reply.text, citations: null });
  for (const use of reply.toolUses) {
    content.push({ type: 'tool_use', id: use.id, name: use.name, input: use.input, caller: { type: 'direct' } });
  }
  return message(meta, content, stopReason(reply), outputTokens(reply));
}

/** message_start carries the input usage and a token of output, as the API's does. */
export function messageStartEvent(meta: ReplyMeta): RawMessageStartEvent {
  return { type: 'message_start', message: message(meta, [], null, 1) };
}

/** The reply as the SSE event sequence of a streaming response, in order. */
export function streamEvents(reply: ScriptedReply, meta: ReplyMeta): RawMessageStreamEvent[] {
  const events: RawMessageStreamEvent[] = [messageStartEvent(meta)];
  let index = 0;
  if (reply.text !== undefined) {
    events.push({ type: 'content_block_start', index, content_block: { type: 'text', text: '', citations: null } });
    for (const text of chunkText(reply.text)) {
      events.push({ type: 'content_block_delta', index, delta: { type: 'text_delta', text } });
    }
    events.push({ type: 'content_block_stop', index });
    index += 1;
  }
  for (const use of reply.toolUses) {
    events.push({
      type: 'content_block_start',
      index,
      content_block: { type: 'tool_use', id: use.id, name: use.name, input: {}, caller: { type: 'direct' } },
    });
    for (const partial_json of chunkJson(JSON.stringify(use.input))) {
      events.push({ type: 'content_block_delta', index, delta: { type: 'input_json_delta', partial_json } });
    }
    events.push({ type: 'content_block_stop', index });
    index += 1;
  }
  const { input } = meta;
  events.push({
    type: 'message_delta',
    delta: { stop_reason: stopReason(reply), stop_sequence: null, stop_details: null, container: null },
    usage: {
      output_tokens: outputTokens(reply),
      input_tokens: input.input_tokens,
      cache_creation_input_tokens: input.cache_creation_input_tokens,
      cache_read_input_tokens: input.cache_read_input_tokens,
      output_tokens_details: null,
      server_tool_use: null,
    },
  });
  events.push({ type: 'message_stop' });
  return events;
}

/** One server-sent event: `event:` and `data:` lines, then the blank line that ends it. */
export function sseFrame(event: string, data: unknown): string {
  return `event: ${event}\ndata: ${JSON.stringify(data)}\n\n`;
}
