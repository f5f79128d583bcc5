import { randomBytes } from 'node:crypto';
import type { TeamStore } from '../store/index.js';
import type { KeyPair } from './key-file.js';
import type { Report, ReportBody } from './reports.js';
import { signLine } from './signed-line.js';

/** Ids for orders and reports: random, so no two runs or processes make the same one. */
export function lineId(): string {
  return randomBytes(12).toString('base64url');
}

/** A host's side of its reports channel: each report signed with the host's own key. */
export function hostReporter(store: TeamStore, host: string, key: KeyPair) {
  return (order: string, name: string, body: ReportBody): Promise<void> => {
    const report: Report = { id: lineId(), from: host, order, name, body };
    return store.hosts.reports.append(host, signLine(key.privateKey, report));
  };
}
export type HostReporter = ReturnType<typeof hostReporter>;
