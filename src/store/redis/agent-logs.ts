import { oneLine, quoted } from '../../lib/index.js';
import { AgentName } from '../../protocol/index.js';
import { lineBreakProblem, parseLogLine, tailProblem, type LogLine } from '../agent-log.js';
import type { AgentLogs, LogBatch, LogCursor, LogReadOptions, Subscription } from '../team-store.js';
import { untilAnswered, type RedisTeam } from './redis-team.js';
import { rangeEntries, type StreamEntry } from './stream-entries.js';
import { followStreams } from './stream-follow.js';

/** The field of a log entry that holds its line. */
const LINE_FIELD = 'l';
/** Lines read at most per batch: a reader of a long log catches up a batch at a time. */
const MAX_BATCH_LINES = 10_000;

/**
 * The Redis store's agent-log cursor: the id of the last entry read, named as this store's so
 * that a cursor from another store (or a bare stream id) is told apart, not misread.
 */
const CURSOR = /^redis-log:(0|[1-9]\d{0,19})-(0|[1-9]\d{0,19})$/;

function cursorAt(id: string): LogCursor {
  return `redis-log:${id}`;
}

/** The entry id a cursor names; a cursor this store did not give is an error saying so. */
function idOf(cursor: LogCursor): string {
  const match = typeof cursor === 'string' ? CURSOR.exec(cursor) : null;
  if (!match) throw new Error(`not a cursor of the Redis store's agent logs: ${quoted(oneLine(String(cursor), 80))}`);
  return `${match[1]}-${match[2]}`;
}

/** The options as this store reads them: the cursor as an entry id; a bad one is an error. */
function checkOptions({ from, tail }: LogReadOptions): { after?: string; tail?: number } {
  const problem = tail === undefined ? undefined : tailProblem(tail);
  if (problem) throw new Error(problem);
  return { after: from === undefined ? undefined : idOf(from), tail };
}

function lineOf(entry: StreamEntry): LogLine | undefined {
  // An entry trimmed away while it was read: nothing to show.
  if (entry.fields === null) return undefined;
  const text = entry.fields.get(LINE_FIELD);
  // Only ever shown, never obeyed: an entry not written by this store is said, not dropped silently.
  return text === undefined ? { type: 'raw', text: `(entry ${entry.id} is not a log line)` } : parseLogLine(text);
}

function batchOf(entries: readonly StreamEntry[], after: string, skipped: boolean): LogBatch {
  const lines = entries.map(lineOf).filter((line) => line !== undefined);
  return { lines, next: cursorAt(entries.at(-1)?.id ?? after), skipped };
}

/**
 * Teammates' logs on Redis: a stream per agent, an entry per line. A batch is appended in one
 * MULTI, so a reader sees all of it or none and no other writer's line lands inside it; a read
 * from a cursor is an XRANGE after its id, a tail an XREVRANGE of that many entries.
 */
export class RedisAgentLogs implements AgentLogs {
  constructor(private readonly redis: RedisTeam) {}

  private keyOf(agent: string): string {
    return this.redis.keys.agentLog(AgentName.parse(agent));
  }

  async append(agent: string, lines: readonly string[]): Promise<void> {
    const key = this.keyOf(agent);
    const broken = lineBreakProblem(agent, lines);
    if (broken) throw new Error(broken);
    // Blank lines carry nothing; left out, a tail counts only lines worth showing.
    const kept = lines.filter((line) => line.trim() !== '');
    if (kept.length === 0) return;
    // Not sent again after a dropped connection: a log shown twice misleads more than a gap said plainly by the status.
    const multi = this.redis.client.multi();
    for (const line of kept) multi.addCommand(['XADD', key, '*', LINE_FIELD, line]);
    await multi.exec();
  }

  async read(agent: string, options: LogReadOptions = {}): Promise<LogBatch> {
    const key = this.keyOf(agent);
    const { after, tail } = checkOptions(options);
    if (after === undefined && tail !== undefined) {
      // One more than wanted: whether any was left out.
      const newest = rangeEntries(await this.command(['XREVRANGE', key, '+', '-', 'COUNT', String(tail + 1)]), 'XREVRANGE');
      const skipped = newest.length > tail;
      const kept = newest.slice(0, tail).reverse();
      return batchOf(kept, newest[0]?.id ?? '0-0', skipped);
    }
    const start = after === undefined ? '-' : `(${after}`;
    return batchOf(rangeEntries(await this.command(['XRANGE', key, start, '+', 'COUNT', String(MAX_BATCH_LINES)])), after ?? '0-0', false);
  }

  async follow(agent: string, listener: (batch: LogBatch) => void, options: LogReadOptions = {}): Promise<Subscription> {
    const key = this.keyOf(agent);
    const first = await this.read(agent, options);
    listener(first);
    let position = idOf(first.next);
    const follow = await followStreams(
      this.redis.target,
      [{ key, after: position }],
      (read) => {
        const entries = read.flatMap((stream) => stream.entries);
        if (entries.length === 0) return;
        const batch = batchOf(entries, position, false);
        position = idOf(batch.next);
        listener(batch);
      },
      // A follow has nowhere else to say what went wrong: its reader sees it as a line of the log.
      (error) => listener({ lines: [{ type: 'raw', text: `(reading the log failed: ${error.message})` }], next: cursorAt(position), skipped: false }),
    );
    return this.redis.keep(follow);
  }

  private command(args: string[]): Promise<unknown> {
    return untilAnswered(this.redis.client, () => this.redis.client.sendCommand(args));
  }
}
