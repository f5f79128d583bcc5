import { createHash, type Hash } from 'node:crypto';
import type { MessagesRequest } from './request.js';

/**
 * Deterministic token figures for the offline model, with prompt caching simulated the
 * way the API reports it, so usage and cost displays show cache writes then cache reads
 * exactly as they would against Claude. Estimates, not a tokenizer: about 4 characters
 * per token.
 */

export function estimateTokens(text: string): number {
  return Math.ceil(text.length / 4);
}

export type InputUsage = { input_tokens: number; cache_creation_input_tokens: number; cache_read_input_tokens: number };

type Segment = { text: string; breakpoint: boolean };

/** The request in cache-prefix order (tools, then system, then messages), one segment per block. */
function segments(body: MessagesRequest): Segment[] {
  const out: Segment[] = [];
  for (const tool of body.tools ?? []) out.push({ text: JSON.stringify(tool), breakpoint: Boolean(tool.cache_control) });
  if (typeof body.system === 'string') out.push({ text: body.system, breakpoint: false });
  for (const block of Array.isArray(body.system) ? body.system : []) {
    out.push({ text: block.text, breakpoint: Boolean(block.cache_control) });
  }
  for (const message of body.messages) {
    if (typeof message.content === 'string') {
      out.push({ text: `${message.role}: ${message.content}`, breakpoint: false });
      continue;
    }
    for (const block of message.content) {
      const breakpoint = 'cache_control' in block && Boolean(block.cache_control);
      out.push({ text: `${message.role}: ${JSON.stringify(block)}`, breakpoint });
    }
  }
  return out;
}

/** The whole request's estimated input tokens: what the API would count against the window. */
export function estimateRequestTokens(body: MessagesRequest): number {
  return segments(body).reduce((sum, segment) => sum + estimateTokens(segment.text), 0);
}

/** Past this many remembered prefixes the cache starts over: a bound, not an eviction policy. */
const MAX_CACHED_PREFIXES = 4096;

export class PromptCache {
  private readonly prefixes = new Set<string>();

  /** Usage for one request; remembers its cacheable prefixes for the next ones. */
  account(body: MessagesRequest): InputUsage {
    const hash: Hash = createHash('sha256').update(body.model);
    let total = 0;
    const breakpoints: { digest: string; tokens: number }[] = [];
    for (const segment of segments(body)) {
      total += estimateTokens(segment.text);
      // The separator keeps ["ab","c"] and ["a","bc"] from hashing alike.
      hash.update(segment.text).update('\u0000');
      if (segment.breakpoint) breakpoints.push({ digest: hash.copy().digest('hex'), tokens: total });
    }
    const lastBreakpoint = breakpoints.at(-1);
    if (lastBreakpoint === undefined) return { input_tokens: total, cache_creation_input_tokens: 0, cache_read_input_tokens: 0 };

    // Like the API: the longest previously cached prefix is read, the rest up to the last breakpoint is written.
    const hit = breakpoints.findLast((b) => this.prefixes.has(b.digest));
    const read = hit?.tokens ?? 0;
    if (this.prefixes.size > MAX_CACHED_PREFIXES) this.prefixes.clear();
    for (const b of breakpoints) this.prefixes.add(b.digest);
    return {
      input_tokens: total - lastBreakpoint.tokens,
      cache_creation_input_tokens: lastBreakpoint.tokens - read,
      cache_read_input_tokens: read,
    };
  }
}
