import * as z from 'zod';

/** What a bench reader process reports on its last stdout line. */
export const ReaderReport = z.object({
  received: z.number().int(),
  duplicates: z.number().int(),
  p50Ms: z.number(),
  p99Ms: z.number(),
  maxMs: z.number(),
  /** The latency of the message handled last. */
  lastMs: z.number(),
  /** process.hrtime.bigint() when the last message reached the handler. */
  lastNs: z.string(),
  /** CPU time (user + system) spent from ready to the report. */
  cpuUs: z.number(),
  maxRssKiB: z.number(),
});
export type ReaderReport = z.infer<typeof ReaderReport>;

/** The nearest-rank percentile of ascending values. */
export function percentile(ascending: readonly number[], p: number): number {
  if (ascending.length === 0) return Number.NaN;
  return ascending[Math.min(ascending.length - 1, Math.ceil((p / 100) * ascending.length) - 1)] ?? Number.NaN;
}

/** Latencies in the order they were taken: the last one is the message handled last. */
export function latencySummary(latenciesNs: readonly bigint[]): Pick<ReaderReport, 'p50Ms' | 'p99Ms' | 'maxMs' | 'lastMs'> {
  const inOrder = latenciesNs.map((ns) => Number(ns) / 1e6);
  const ms = [...inOrder].sort((a, b) => a - b);
  return { p50Ms: percentile(ms, 50), p99Ms: percentile(ms, 99), maxMs: ms.at(-1) ?? Number.NaN, lastMs: inOrder.at(-1) ?? Number.NaN };
}

/** CPU time (user + system, µs) since `since`. */
export function cpuMicros(since?: NodeJS.CpuUsage): number {
  const used = process.cpuUsage(since);
  return used.user + used.system;
}
