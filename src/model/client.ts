import Anthropic, { AnthropicError, APIConnectionError, APIError } from '@anthropic-ai/sdk';
import type {
  Message,
  MessageParam,
  RawMessageStreamEvent,
  RedactedThinkingBlockParam,
  StopReason,
  TextBlockParam,
  ThinkingBlockParam,
  Tool,
  ToolUseBlockParam,
} from '@anthropic-ai/sdk/resources/messages';
import type { MessageStreamParams } from '@anthropic-ai/sdk/resources/index';
import { setTimeout as sleep } from 'node:timers/promises';
import * as z from 'zod';
import type { TokenUsage } from './usage.js';
import { httpFetch } from './http-fetch.js';
import { EPHEMERAL, MAX_BREAKPOINTS, withConversationBreakpoints } from './cache-breakpoints.js';

/**
 * One model turn over the real SDK: streamed, with prompt caching, retries and
 * interruption. The same code talks to Claude and to the offline model's local server.
 */

export type ToolSpec = { name: string; description: string; input_schema: Tool.InputSchema };

export type TurnRequest = {
  system: string;
  tools: ToolSpec[];
  messages: readonly MessageParam[];
  maxTokens?: number;
  signal?: AbortSignal;
  /** False for a one-off request (a summary) whose conversation no later call repeats: writing it to the cache would cost 1.25× for nothing. */
  cacheConversation?: boolean;
};

export type ModelEvent =
  | { type: 'text_delta'; index: number; text: string }
  | { type: 'tool_use_start'; index: number; id: string; name: string }
  | { type: 'tool_input_delta'; index: number; partial_json: string }
  | { type: 'turn_end'; stop_reason: StopReason; usage: TokenUsage };

/** Blocks the assistant message is made of: valid MessageParam content as they are. */
export type AssistantBlock =
  | TextBlockParam
  | (ToolUseBlockParam & { input: Record<string, unknown> })
  // Thinking must go back to the API unmodified with the rest of the turn.
  | ThinkingBlockParam
  | RedactedThinkingBlockParam;

export type ModelTurn = { content: AssistantBlock[]; stop_reason: StopReason; usage: TokenUsage; model: string };

export type ModelClientOptions = {
  model: string;
  apiKey: string;
  baseURL?: string;
  /** The SDK's retries of a failed HTTP request (408, 409, 429, 5xx incl. 529, connection errors). */
  maxRetries?: number;
  /** First delay before retrying an error that arrived inside a 200 stream; doubles each time. */
  streamRetryDelayMs?: number;
  timeoutMs?: number;
  /**
   * Rolling cache breakpoints on the conversation (cache-breakpoints.ts); on unless false.
   * Off, only the tools and the system prompt are cached: the benchmark's baseline.
   */
  cacheConversation?: boolean;
};

export const DEFAULT_MAX_TOKENS = 16_000;
const DEFAULT_MAX_RETRIES = 4;

/** A turn that failed after retries; `retryable` says whether trying again later may help. */
export class ModelError extends Error {
  override name = 'ModelError';
  constructor(
    message: string,
    readonly status: number | undefined,
    readonly errorType: string | undefined,
    readonly retryable: boolean,
    options?: { cause?: unknown },
  ) {
    super(message, options);
  }
}

/** The turn was interrupted through its signal; `partialText` is what had streamed by then. */
export class TurnAbortedError extends Error {
  override name = 'TurnAbortedError';
  constructor(readonly partialText: string) {
    super('model turn interrupted');
  }
}

const RETRYABLE_TYPES = new Set(['overloaded_error', 'api_error', 'rate_limit_error', 'timeout_error']);

function isRetryable(error: APIError): boolean {
  if (error instanceof APIConnectionError) return true;
  if (error.status === undefined) return error.type !== null && RETRYABLE_TYPES.has(error.type);
  return error.status === 408 || error.status === 409 || error.status === 429 || error.status >= 500;
}

function toModelError(error: AnthropicError): ModelError {
  if (!(error instanceof APIError)) return new ModelError(`model request failed: ${error.message}`, undefined, undefined, false, { cause: error });
  const what = [error.status, error.type].filter((part) => part !== undefined && part !== null).join(' ');
  const detail = error.apiMessage ?? error.message;
  const message = `model request failed${what ? ` (${what})` : ''}: ${detail}`;
  return new ModelError(message, error.status, error.type ?? undefined, isRetryable(error), { cause: error });
}

const ToolInput = z.record(z.string(), z.unknown());

/** The streamed JSON, parsed strictly: the SDK's lenient partial parse would hide a truncated input. */
function parseToolInput(name: string, json: string | undefined): Record<string, unknown> {
  let value: unknown;
  try {
    value = JSON.parse(json === undefined || json === '' ? '{}' : json);
  } catch {
    throw new ModelError(`tool_use ${name}: input is not complete JSON`, undefined, undefined, false);
  }
  const parsed = ToolInput.safeParse(value);
  if (!parsed.success) throw new ModelError(`tool_use ${name}: input is not a JSON object`, undefined, undefined, false);
  return parsed.data;
}

function toTurn(message: Message, inputs: ReadonlyMap<number, string>): ModelTurn {
  const content: AssistantBlock[] = [];
  message.content.forEach((block, index) => {
    if (block.type === 'text') content.push({ type: 'text', text: block.text });
    else if (block.type === 'tool_use') {
      content.push({ type: 'tool_use', id: block.id, name: block.name, input: parseToolInput(block.name, inputs.get(index)) });
    } else if (block.type === 'thinking') content.push({ type: 'thinking', thinking: block.thinking, signature: block.signature });
    else if (block.type === 'redacted_thinking') content.push({ type: 'redacted_thinking', data: block.data });
    // Other block kinds come from server tools, which this client never offers.
  });
  if (message.stop_reason === null) throw new ModelError('model stream ended without a stop reason', undefined, undefined, true);
  const u = message.usage;
  const usage: TokenUsage = {
    input_tokens: u.input_tokens,
    output_tokens: u.output_tokens,
    cache_read_tokens: u.cache_read_input_tokens ?? 0,
    cache_write_tokens: u.cache_creation_input_tokens ?? 0,
  };
  return { content, stop_reason: message.stop_reason, usage, model: message.model };
}

export class ModelClient {
  readonly model: string;
  private readonly sdk: Anthropic;
  private readonly maxRetries: number;
  private readonly streamRetryDelayMs: number;
  private readonly cacheConversation: boolean;

  constructor(options: ModelClientOptions) {
    this.model = options.model;
    this.cacheConversation = options.cacheConversation ?? true;
    this.maxRetries = options.maxRetries ?? DEFAULT_MAX_RETRIES;
    this.streamRetryDelayMs = options.streamRetryDelayMs ?? 1000;
    this.sdk = new Anthropic({
      apiKey: options.apiKey,
      // null, not undefined: the SDK would otherwise read ANTHROPIC_BASE_URL itself, behind settings' back.
      baseURL: options.baseURL ?? null,
      maxRetries: this.maxRetries,
      fetch: httpFetch,
      ...(options.timeoutMs === undefined ? {} : { timeout: options.timeoutMs }),
    });
  }

  /** Run one turn, streaming its events to `onEvent`; resolves with the finished turn. */
  async turn(request: TurnRequest, onEvent: (event: ModelEvent) => void): Promise<ModelTurn> {
    let partialText = '';
    let emitted = false;
    const emit = (event: ModelEvent) => {
      emitted = true;
      if (event.type === 'text_delta') partialText += event.text;
      onEvent(event);
    };
    if (request.signal?.aborted) throw new TurnAbortedError('');
    for (let attempt = 0; ; attempt++) {
      try {
        return await this.attempt(request, emit);
      } catch (error) {
        if (request.signal?.aborted) throw new TurnAbortedError(partialText);
        // The SDK retries failed HTTP responses; an error event inside a 200 stream is ours to
        // retry, but only before anything reached onEvent, or the caller would see text twice.
        const inStream = error instanceof APIError && error.status === undefined && !(error instanceof APIConnectionError);
        if (!(inStream && isRetryable(error) && !emitted && attempt < this.maxRetries)) {
          // SDK failures become ModelErrors; anything else (onEvent throwing, say) is the caller's own.
          throw error instanceof AnthropicError ? toModelError(error) : error;
        }
        try {
          await sleep(this.streamRetryDelayMs * 2 ** attempt, undefined, { signal: request.signal });
        } catch {
          throw new TurnAbortedError(partialText);
        }
      }
    }
  }

  private params(request: TurnRequest): MessageStreamParams {
    const last = request.tools.length - 1;
    const left = MAX_BREAKPOINTS - (last < 0 ? 0 : 1) - (request.system === '' ? 0 : 1);
    return {
      model: this.model,
      max_tokens: request.maxTokens ?? DEFAULT_MAX_TOKENS,
      messages: (request.cacheConversation ?? this.cacheConversation) ? withConversationBreakpoints(request.messages, left) : [...request.messages],
      // Cache breakpoints: the tools, then tools + system, are the prefix every turn repeats.
      ...(request.system === '' ? {} : { system: [{ type: 'text', text: request.system, cache_control: EPHEMERAL }] }),
      ...(last < 0 ? {} : { tools: request.tools.map((tool, i) => (i === last ? { ...tool, cache_control: EPHEMERAL } : tool)) }),
    };
  }

  private async attempt(request: TurnRequest, emit: (event: ModelEvent) => void): Promise<ModelTurn> {
    const stream = this.sdk.messages.stream(this.params(request), { signal: request.signal });
    const final = stream.finalMessage();
    // Awaited below; this only keeps an early exit from the loop from leaving it unhandled.
    final.catch(() => undefined);
    const inputs = new Map<number, string>();
    try {
      for await (const event of stream) forward(event, inputs, emit);
    } finally {
      if (!stream.ended) stream.abort();
    }
    const turn = toTurn(await final, inputs);
    emit({ type: 'turn_end', stop_reason: turn.stop_reason, usage: turn.usage });
    return turn;
  }
}

function forward(event: RawMessageStreamEvent, inputs: Map<number, string>, emit: (event: ModelEvent) => void): void {
  if (event.type === 'content_block_start' && event.content_block.type === 'tool_use') {
    inputs.set(event.index, '');
    emit({ type: 'tool_use_start', index: event.index, id: event.content_block.id, name: event.content_block.name });
  } else if (event.type === 'content_block_delta' && event.delta.type === 'text_delta') {
    emit({ type: 'text_delta', index: event.index, text: event.delta.text });
  } else if (event.type === 'content_block_delta' && event.delta.type === 'input_json_delta') {
    inputs.set(event.index, (inputs.get(event.index) ?? '') + event.delta.partial_json);
    emit({ type: 'tool_input_delta', index: event.index, partial_json: event.delta.partial_json });
  }
}
