import type { KeyObject } from 'node:crypto';
import type { HostBeat, HostRecord } from '../store/index.js';
import { LEAD } from '../protocol/index.js';
import { proveBeat, provenAt } from './beat-proof.js';
import { enrollmentMac } from './enrollment.js';
import type { KeyPair } from './key-file.js';

/**
 * The lead beats in the host section too, under its own name, signed by the team anchor: a host
 * ends its teammates when the lead stops beating, and those another lead process started (a
 * lead that died and was started again) as soon as the beat names another lead key.
 */
export function leadBeatRecord(anchor: KeyPair, team: string, run: string, leadKey: string, at: string): HostRecord {
  const beat = { name: LEAD, public_key: anchor.publicKey, enrollment: enrollmentMac(anchor.secret, team, LEAD, anchor.publicKey), run, pid: process.pid, lead_key: leadKey };
  return proveBeat(beat, team, at, anchor.privateKey);
}

/** The lead process beating now, as the anchor signed it: how long ago (store clock) and its key; undefined: no signed beat. */
export function leadBeat(hosts: readonly HostBeat[], now: string, anchorKey: KeyObject, team: string): { ageMs: number; leadKey: string | undefined } | undefined {
  const beat = hosts.find((h) => h.name === LEAD);
  const at = beat === undefined ? undefined : provenAt(beat, team, anchorKey, now);
  if (beat === undefined || at === undefined) return undefined;
  return { ageMs: Date.parse(now) - at, leadKey: beat.lead_key };
}

/** A lead gone quiet this long is taken for dead by its hosts (they end its teammates). */
export const LEAD_STALE_MS = 6_000;
/** How often the lead and each host beat. */
export const BEAT_MS = 500;
