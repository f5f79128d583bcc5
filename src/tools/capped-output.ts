/** Characters of one tool result that enter a conversation; the rest of a longer one is cut. */
export const MAX_TOOL_RESULT_CHARS = 30_000;

/** The line that stands where a middle was cut, so the model knows something is missing and how much. */
function cutMarker(amount: number, unit: string, what: string): string {
  return `\n… [${amount} ${unit} cut from the middle of this ${what}] …\n`;
}

/**
 * A tool result as it enters the conversation: at most `max` characters, head and tail kept.
 * Every tool's result passes here (the agent loop calls it), so no tool can fill the context
 * window with one call, whatever its own limits.
 */
export function capToolResult(content: string, max = MAX_TOOL_RESULT_CHARS): string {
  if (content.length <= max) return content;
  const head = Math.ceil(max / 2);
  const tail = max - head;
  return content.slice(0, head) + cutMarker(content.length - head - tail, 'characters', 'tool result') + content.slice(content.length - tail);
}

/**
 * A stream's output kept within a byte budget: the first half and the last half, with a
 * marker saying how much was cut between them. The start of a command's output says what
 * it was doing and the end how it finished; the middle of a long build log rarely matters.
 */
export class CappedOutput {
  private readonly head: Buffer[] = [];
  private headBytes = 0;
  private tail: Buffer[] = [];
  private tailBytes = 0;
  private total = 0;
  private readonly headCap: number;
  private readonly tailCap: number;

  constructor(readonly maxBytes: number) {
    this.headCap = Math.ceil(maxBytes / 2);
    this.tailCap = maxBytes - this.headCap;
  }

  push(chunk: Buffer): void {
    this.total += chunk.length;
    const intoHead = Math.min(chunk.length, this.headCap - this.headBytes);
    if (intoHead > 0) {
      this.head.push(chunk.subarray(0, intoHead));
      this.headBytes += intoHead;
    }
    if (intoHead === chunk.length) return;
    this.tail.push(chunk.subarray(intoHead));
    this.tailBytes += chunk.length - intoHead;
    this.trimTail();
  }

  get truncated(): boolean {
    return this.total > this.maxBytes;
  }

  text(): string {
    const head = Buffer.concat(this.head).toString('utf8');
    const tail = Buffer.concat(this.tail).toString('utf8');
    if (!this.truncated) return head + tail;
    return head + cutMarker(this.total - this.headBytes - this.tailBytes, 'bytes', 'output') + tail;
  }

  private trimTail(): void {
    let excess = this.tailBytes - this.tailCap;
    while (excess > 0) {
      const first = this.tail[0] as Buffer;
      if (first.length <= excess) {
        this.tail.shift();
        excess -= first.length;
        this.tailBytes -= first.length;
      } else {
        this.tail[0] = first.subarray(excess);
        this.tailBytes -= excess;
        excess = 0;
      }
    }
  }
}
