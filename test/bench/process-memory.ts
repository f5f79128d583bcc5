import { readFileSync } from 'node:fs';

/**
 * A process's memory as the kernel counts it. RSS counts every page the process has mapped,
 * the Node binary and libraries it shares with every other Node process included; PSS divides
 * each shared page among the processes that map it, so a team's PSS adds up to what the team
 * really costs. Both in MiB.
 */
export type ProcessMemory = { rssMiB: number; pssMiB: number };

function kiB(text: string, field: string, file: string): number {
  const value = Number(new RegExp(`^${field}:\\s+(\\d+) kB$`, 'm').exec(text)?.[1]);
  if (!Number.isFinite(value)) throw new Error(`no ${field} in ${file}`);
  return value;
}

export function processMemory(pid: number): ProcessMemory {
  const status = `/proc/${pid}/status`;
  const rollup = `/proc/${pid}/smaps_rollup`;
  return { rssMiB: kiB(readFileSync(status, 'utf8'), 'VmRSS', status) / 1024, pssMiB: kiB(readFileSync(rollup, 'utf8'), 'Pss', rollup) / 1024 };
}

/** MiB (2^20 bytes, what the kernel's kB are multiples of) in MB (10^6 bytes), for targets given in MB. */
export function megabytes(mib: number): number {
  return (mib * 1024 * 1024) / 1e6;
}
