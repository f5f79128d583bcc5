import { appendLines, readLines } from './jsonl.js';
import { AuditEntry, type AuditDraft } from '../audit.js';
import type { AuditBatch, AuditLog, Subscription } from '../team-store.js';
import { fileLayout, type FileLocation } from './layout.js';
import { lookOnChange } from '../../lib/index.js';

/** The audit log as `audit.jsonl`: one entry a line, each appended in one write(2). */
export class FileAudit implements AuditLog {
  private readonly path: string;

  constructor(location: FileLocation) {
    this.path = fileLayout(location.root).audit;
  }

  async append(entry: AuditDraft): Promise<AuditEntry> {
    const stamped = AuditEntry.parse({ ...entry, at: new Date().toISOString() });
    appendLines(this.path, [stamped]);
    return stamped;
  }

  async read(): Promise<AuditBatch> {
    return this.readFrom(0).batch;
  }

  async follow(listener: (batch: AuditBatch) => void): Promise<Subscription> {
    let offset = 0;
    return lookOnChange([this.path], () => {
      const { batch, nextOffset } = this.readFrom(offset);
      offset = nextOffset;
      if (batch.entries.length > 0 || batch.problems.length > 0) listener(batch);
    });
  }

  /** Complete lines from byte `offset` on; a line still being written waits for the next read. */
  private readFrom(offset: number): { batch: AuditBatch; nextOffset: number } {
    const read = readLines(this.path, AuditEntry, offset);
    const problems = read.problems.map((problem) => ({ ref: `${this.path} at byte ${problem.offset}`, reason: problem.reason }));
    return { batch: { entries: read.records, problems }, nextOffset: read.nextOffset };
  }
}
