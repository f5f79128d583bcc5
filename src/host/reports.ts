import type { KeyObject } from 'node:crypto';
import * as z from 'zod';
import { AgentName } from '../protocol/index.js';
import { CompactReason } from '../store/index.js';
import { openSignedLine, type Opened } from './signed-line.js';

/**
 * What a host tells the lead about a teammate it started, each report signed with the host's
 * pinned key and naming the spawn order it answers: the lead believes only reports about
 * teammates it ordered in this run, once each.
 */
export const ReportBody = z.discriminatedUnion('type', [
  /** The teammate's key, as it told its supervisor over IPC: the lead hands it to the team. */
  z.object({ type: z.literal('key'), public_key: z.string().min(1).max(200) }),
  z.object({ type: z.literal('started'), pid: z.number().int().positive() }),
  z.object({ type: z.literal('ready'), pid: z.number().int().positive() }),
  z.object({ type: z.literal('failed'), reason: z.string().max(2000) }),
  z.object({
    type: z.literal('exit'),
    pid: z.number().int().positive(),
    code: z.number().int().nullable(),
    signal: z.string().regex(/^SIG[A-Z0-9]+$/).nullable(),
    expected: z.boolean(),
  }),
  z.object({ type: z.literal('compacted'), before: z.number().int().nonnegative(), after: z.number().int().nonnegative(), reason: CompactReason }),
]);
export type ReportBody = z.infer<typeof ReportBody>;

export const Report = z.object({
  id: z.string().regex(/^[A-Za-z0-9_-]{8,64}$/),
  from: AgentName,
  /** The spawn order this report is about, and the teammate it started. */
  order: z.string().min(1).max(64),
  name: AgentName,
  body: ReportBody,
});
export type Report = z.infer<typeof Report>;

/** The lead's check of one host's reports: its pinned key, its name, an id not seen before. */
export class ReportGate {
  private readonly seen = new Set<string>();

  constructor(
    private readonly hostKey: KeyObject,
    private readonly host: string,
  ) {}

  admit(line: string): Opened<Report> {
    const opened = openSignedLine(line, this.hostKey, Report, `a report of ${this.host}`);
    if (!opened.ok) return opened;
    const report = opened.value;
    if (report.from !== this.host) return { ok: false, reason: `a report in ${this.host}'s channel says it is from ${report.from}` };
    if (this.seen.has(report.id)) return { ok: false, reason: `report ${report.id} of ${this.host} was already taken: a replay` };
    this.seen.add(report.id);
    return opened;
  }
}
