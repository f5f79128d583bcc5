import { createHash } from 'node:crypto';
import type { MessagesRequest } from './request.js';
import { estimateTokens, type InputUsage } from './usage-estimate.js';

/**
 * The offline model's prompt cache, kept to the API's rules so that the cache figures it
 * reports (and the benchmark built on them) are what Claude would report for the same
 * requests:
 * - an entry is the request's content (tools, system, messages, in that order) up to a
 *   cache breakpoint, written when a request carries a breakpoint there;
 * - for each breakpoint the API also looks at the prefixes ending at up to LOOKBACK_BLOCKS
 *   earlier block boundaries, breakpoint or not, for an entry an earlier request wrote,
 *   and reads the longest one it finds;
 * - an entry lives CACHE_TTL_MS after it was written or last read;
 * - a prefix shorter than MIN_CACHEABLE_TOKENS is not cached at all.
 * Where the breakpoints sit does not change what a prefix is: cache_control is left out
 * of what identifies it, and a string `content` is the one text block it stands for.
 */

/** The default (5-minute) cache, the only kind this project asks for. */
export const CACHE_TTL_MS = 5 * 60 * 1000;
/** How many block boundaries before a breakpoint the API also checks for an entry. */
export const LOOKBACK_BLOCKS = 20;
/** The shortest prefix Sonnet and Opus cache; the offline model is held to the same. */
export const MIN_CACHEABLE_TOKENS = 1024;

/** Past this many entries the expired ones go, and if that is not enough, all of them: a bound, not an eviction policy. */
const MAX_ENTRIES = 4096;

type Boundary = { digest: string; tokens: number; breakpoint: boolean };

/** A block as it identifies a prefix: without its cache_control. */
function identity(block: object): string {
  const { cache_control: _marker, ...content } = block as Record<string, unknown>;
  return JSON.stringify(content);
}

function hasBreakpoint(block: object): boolean {
  return 'cache_control' in block && Boolean(block.cache_control);
}

/** The request's blocks in cache-prefix order (tools, system, messages), as they identify a prefix. */
function prefixBlocks(body: MessagesRequest): { text: string; breakpoint: boolean }[] {
  const blocks: { text: string; breakpoint: boolean }[] = [];
  for (const tool of body.tools ?? []) blocks.push({ text: identity(tool), breakpoint: hasBreakpoint(tool) });
  if (typeof body.system === 'string') blocks.push({ text: identity({ type: 'text', text: body.system }), breakpoint: false });
  for (const block of Array.isArray(body.system) ? body.system : []) blocks.push({ text: identity(block), breakpoint: hasBreakpoint(block) });
  for (const message of body.messages) {
    const content = typeof message.content === 'string' ? [{ type: 'text', text: message.content }] : message.content;
    for (const block of content) blocks.push({ text: `${message.role}: ${identity(block)}`, breakpoint: hasBreakpoint(block) });
  }
  return blocks;
}

/** The whole request's estimated input tokens, counted as the cache counts them: what the API holds against the window. */
export function estimateRequestTokens(body: MessagesRequest): number {
  return prefixBlocks(body).reduce((sum, block) => sum + estimateTokens(block.text), 0);
}

/** One boundary per block, in cache-prefix order, each with its prefix's digest and size. */
function boundaries(body: MessagesRequest): Boundary[] {
  const blocks = prefixBlocks(body);
  // Caches are per model: the same words sent to another model share nothing.
  const hash = createHash('sha256').update(body.model);
  let tokens = 0;
  return blocks.map((block) => {
    tokens += estimateTokens(block.text);
    // The separator keeps ["ab","c"] and ["a","bc"] from hashing alike.
    hash.update(block.text).update('\u0000');
    return { digest: hash.copy().digest('hex'), tokens, breakpoint: block.breakpoint };
  });
}

export type PromptCacheOptions = {
  /** Milliseconds since the epoch; tests pass time with their own clock instead of sleeping. */
  now?: () => number;
};

export class PromptCache {
  /** Prefix digest → when the entry expires. */
  private readonly entries = new Map<string, number>();
  private readonly now: () => number;

  constructor(options: PromptCacheOptions = {}) {
    this.now = options.now ?? Date.now;
  }

  /** Usage for one request; writes its breakpoints' prefixes and refreshes the entry it read. */
  account(body: MessagesRequest): InputUsage {
    const now = this.now();
    const points = boundaries(body);
    const total = points.at(-1)?.tokens ?? 0;
    const written = points.filter((p) => p.breakpoint && p.tokens >= MIN_CACHEABLE_TOKENS);
    const last = written.at(-1);
    if (last === undefined) return { input_tokens: total, cache_creation_input_tokens: 0, cache_read_input_tokens: 0 };

    const hit = this.longestHit(points, now);
    this.evictIfFull(now);
    for (const point of hit === undefined ? written : [hit, ...written]) this.entries.set(point.digest, now + CACHE_TTL_MS);
    const read = hit?.tokens ?? 0;
    return { input_tokens: total - last.tokens, cache_creation_input_tokens: last.tokens - read, cache_read_input_tokens: read };
  }

  /** The longest live entry found at a breakpoint or within LOOKBACK_BLOCKS boundaries before one. */
  private longestHit(points: readonly Boundary[], now: number): Boundary | undefined {
    let hit: Boundary | undefined;
    points.forEach((point, index) => {
      if (!point.breakpoint) return;
      for (let at = index; at >= Math.max(0, index - LOOKBACK_BLOCKS); at--) {
        const candidate = points[at];
        if (candidate === undefined || !this.live(candidate.digest, now)) continue;
        if (hit === undefined || candidate.tokens > hit.tokens) hit = candidate;
        break;
      }
    });
    return hit;
  }

  private live(digest: string, now: number): boolean {
    const expires = this.entries.get(digest);
    return expires !== undefined && expires > now;
  }

  private evictIfFull(now: number): void {
    if (this.entries.size <= MAX_ENTRIES) return;
    for (const [digest, expires] of this.entries) if (expires <= now) this.entries.delete(digest);
    if (this.entries.size > MAX_ENTRIES) this.entries.clear();
  }
}
