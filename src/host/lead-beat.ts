import type { HostBeat, HostRecord } from '../store/index.js';
import { LEAD } from '../protocol/index.js';
import { enrollmentHolds, enrollmentMac } from './enrollment.js';
import type { KeyPair } from './key-file.js';

/**
 * The lead beats in the host section too, under its own name, with the anchor's public key
 * and the enrollment MAC: a host ends its teammates when the lead stops beating, and believes
 * a beat only from a holder of the secret (a forged one could only keep teammates up longer).
 */
export function leadBeatRecord(anchor: KeyPair, team: string, run: string): HostRecord {
  return { name: LEAD, public_key: anchor.publicKey, enrollment: enrollmentMac(anchor.secret, team, LEAD, anchor.publicKey), run, pid: process.pid };
}

/** How long ago, by the store's clock, the lead last beat with the anchor's key; undefined: never. */
export function leadBeatAge(hosts: readonly HostBeat[], now: string, trust: { anchorPublicKey: string; secret: Buffer }, team: string): number | undefined {
  const beat = hosts.find((h) => h.name === LEAD && h.public_key === trust.anchorPublicKey);
  if (!beat || !enrollmentHolds(trust.secret, team, LEAD, beat.public_key, beat.enrollment)) return undefined;
  return Date.parse(now) - Date.parse(beat.last_beat);
}

/** A host gone quiet this long is taken for dead by the lead (its teammates crashed): with beats every BEAT_MS and a look every 250 ms, a host killed is found within 3 s. */
export const HOST_STALE_MS = 2_000;
/** A lead gone quiet this long is taken for dead by its hosts (they end its teammates). */
export const LEAD_STALE_MS = 6_000;
/** How often the lead and each host beat. */
export const BEAT_MS = 500;
