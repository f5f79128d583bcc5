import type { Envelope } from '../../../protocol/index.js';
import type { Position } from './checkpoint.js';
import { parseEnvelope } from './envelope-text.js';
import { BATCH_BYTES, BATCH_ENTRIES, type Intake } from './intake.js';
import type { MailboxLogLine } from './log-lines.js';
import type { ScannedLog } from './log-scan.js';
import { MessageOrder } from './message-order.js';

/** A message taken, and its line as read. */
export type Taken = { envelope: Envelope; line: Buffer };

/** A line that is not taken as a message: kept in bad/ as `name`, reported at `where` if that fails. */
export type RefusedLine = { name: string; where: string; evidence: Buffer; reason: string };

/**
 * Lines taken from the logs since the last commit: the messages to journal and hand over, the
 * lines to set aside, and how far each log has been taken. Every line read lands in exactly
 * one of these, so the log positions it records never skip a message.
 */
export class MailboxLogBatch {
  private readonly order = new MessageOrder<Taken>();
  private readonly ids = new Set<string>();
  private readonly taken = new Map<string, Position>();
  readonly problems: RefusedLine[] = [];
  private lines = 0;
  private bytes = 0;

  constructor(private readonly intake: Intake) {}

  take(log: ScannedLog, path: string, ino: number, line: MailboxLogLine): void {
    const position = this.taken.get(log.name);
    if (position?.ino === ino) position.offset = line.next;
    else this.taken.set(log.name, { ino, offset: line.next });
    this.lines++;
    this.bytes += line.next - line.offset;
    const verdict = this.judge(line);
    if (verdict.kind === 'problem') {
      this.problems.push({ name: `${log.name}.${line.offset}`, where: `${path} at byte ${line.offset}`, evidence: verdict.evidence, reason: verdict.reason });
      return;
    }
    const envelope = verdict.envelope;
    if (this.intake.handled.has(envelope.id) || this.ids.has(envelope.id)) return;
    this.ids.add(envelope.id);
    // The line as read goes into the journal: checked, and the same JSON as its envelope.
    if (line.kind === 'line') this.order.add(log.writer, envelope.id, { envelope, line: line.bytes });
  }

  /** A message to take, or why not (with the line itself, as evidence). */
  private judge(line: MailboxLogLine): { kind: 'message'; envelope: Envelope } | { kind: 'problem'; reason: string; evidence: Buffer } {
    if (line.kind === 'bad') return { kind: 'problem', reason: line.reason, evidence: line.evidence };
    const parsed = parseEnvelope(line.bytes.toString('utf8'));
    // Copied: a view would keep the whole chunk it was read in alive.
    if (parsed.kind === 'problem') return { ...parsed, evidence: Buffer.from(line.bytes) };
    // Checked before the dedupe too: a refused copy of a handled id is kept as evidence.
    const refused = this.intake.refusal(parsed.envelope);
    if (refused !== undefined) return { kind: 'problem', reason: `refused: ${refused}`, evidence: Buffer.from(line.bytes) };
    return parsed;
  }

  get full(): boolean {
    return this.lines >= BATCH_ENTRIES || this.bytes >= BATCH_BYTES;
  }

  get empty(): boolean {
    return this.taken.size === 0;
  }

  /** How far each log read in this batch has been taken. */
  positions(): ReadonlyMap<string, Position> {
    return this.taken;
  }

  /** The messages to hand over, in order, each with its line as read. */
  messages(): Taken[] {
    return this.order.sorted();
  }
}
