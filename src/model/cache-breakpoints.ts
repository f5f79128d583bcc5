import type { CacheControlEphemeral, ContentBlockParam, MessageParam } from '@anthropic-ai/sdk/resources/messages';

/**
 * Where a request's cache breakpoints go. The tools and the system prompt are the prefix
 * every call repeats; in an agent loop the conversation is too: each call re-sends all of
 * the previous one and adds a little. A rolling breakpoint on the latest block makes each
 * call read the previous call's prefix from the cache and write only what is new.
 *
 * The API finds an earlier entry only at a breakpoint or up to about 20 blocks before one,
 * so a step that adds more than that (a reply with ten parallel tool calls is already 20
 * blocks with their results) would miss, and the whole conversation would be written again
 * at 1.25× the input price. A second breakpoint, on the message the previous call ended
 * with, lands exactly on the entry that call wrote, however much was added since. It costs
 * nothing extra: writes are billed by the tokens after the entry read, not per breakpoint.
 * That makes four with the tools and the system prompt, the API's limit.
 */

export const EPHEMERAL: CacheControlEphemeral = { type: 'ephemeral' };

/** The API's limit on cache_control blocks in one request. */
export const MAX_BREAKPOINTS = 4;

/** Thinking blocks cannot carry cache_control, and neither can an empty text block. */
function canCarry(block: ContentBlockParam): boolean {
  if (block.type === 'thinking' || block.type === 'redacted_thinking') return false;
  return !(block.type === 'text' && block.text === '');
}

/** The blocks with the last one that can carry a breakpoint marked (a copy), or undefined when none can. */
function markLast<B extends ContentBlockParam>(content: readonly B[]): B[] | undefined {
  const at = content.findLastIndex(canCarry);
  if (at < 0) return undefined;
  return content.map((block, index) => (index === at ? { ...block, cache_control: EPHEMERAL } : block));
}

/** The message with its last block that can carry one marked, or undefined when none can. */
function marked(message: MessageParam): MessageParam | undefined {
  // A string is one text block; it has to be written as one to carry the marker.
  const blocks = (content: string) => (content === '' ? [] : [{ type: 'text' as const, text: content }]);
  if (message.role === 'system') {
    const content = markLast(typeof message.content === 'string' ? blocks(message.content) : message.content);
    return content && { ...message, content };
  }
  const content = markLast<ContentBlockParam>(typeof message.content === 'string' ? blocks(message.content) : message.content);
  return content && { ...message, content };
}

/** Marks the last message at or before `from` that can carry a breakpoint; its index, or -1. */
function markFrom(messages: MessageParam[], from: number): number {
  for (let index = from; index >= 0; index--) {
    const message = messages[index];
    const copy = message === undefined ? undefined : marked(message);
    if (copy === undefined) continue;
    messages[index] = copy;
    return index;
  }
  return -1;
}

/**
 * The messages with the conversation's breakpoints, using at most `budget` of them: the
 * latest block, then the end of the previous call (the message before the last reply).
 * The caller's messages and blocks are left as they are: changed ones are copies.
 */
export function withConversationBreakpoints(messages: readonly MessageParam[], budget: number): MessageParam[] {
  const out = [...messages];
  if (budget < 1) return out;
  const latest = markFrom(out, out.length - 1);
  if (budget < 2) return out;
  const reply = messages.findLastIndex((message, index) => message.role === 'assistant' && index < latest);
  if (reply > 0) markFrom(out, reply - 1);
  return out;
}
