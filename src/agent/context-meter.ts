import type { TokenUsage } from '../model/index.js';

/**
 * How full an agent's context is. The API's figures for the last call are exact (input,
 * cache reads and writes, and the reply); what joined the conversation since is estimated
 * from its size, 4 characters a token, until the next call measures it again.
 */
export class ContextMeter {
  private measured = 0;
  private measuredChars = 0;

  /** `fixedChars`: the system prompt and tools, which every call repeats. */
  constructor(
    private windowTokens: number,
    readonly threshold: number,
    private readonly fixedChars: number,
  ) {}

  get window(): number {
    return this.windowTokens;
  }

  /** Another model's window (the lead's /model): what it learned of the old one's does not hold. */
  useWindow(tokens: number): void {
    this.windowTokens = tokens;
  }

  /** The API refused a request as longer than a smaller window than believed: go by the API's. */
  learnWindow(limit: number): void {
    if (limit > 0 && limit < this.windowTokens) this.windowTokens = limit;
  }

  /** After a model call: `chars` is the conversation's size with its reply included. */
  measure(usage: TokenUsage, chars: number): void {
    this.measured = usage.input_tokens + usage.cache_read_tokens + usage.cache_write_tokens + usage.output_tokens;
    this.measuredChars = chars;
  }

  /** Tokens the next call would send, for a conversation of `chars` characters. */
  estimate(chars: number): number {
    if (this.measured === 0) return Math.ceil((this.fixedChars + chars) / 4);
    return this.measured + Math.ceil(Math.max(0, chars - this.measuredChars) / 4);
  }

  /** Past the threshold: compact before the next call. */
  full(chars: number): boolean {
    return this.estimate(chars) >= this.windowTokens * this.threshold;
  }

  /**
   * After a compaction: the measured figure scaled by how much the whole request shrank, so
   * the estimate keeps the calibration of the last real count. Returns the new estimate.
   */
  compacted(beforeChars: number, afterChars: number): number {
    const before = this.estimate(beforeChars);
    const after = Math.ceil((before * (this.fixedChars + afterChars)) / (this.fixedChars + beforeChars));
    this.measured = after;
    this.measuredChars = afterChars;
    return after;
  }
}
