import { sign, verify, type KeyObject } from 'node:crypto';
import { canonical } from '../protocol/index.js';
import type { HostRecord } from '../store/index.js';

/**
 * A beat's own proof that it is fresh. The store stamps every beat with its clock, but anyone
 * who can write to the store can write a stamp: a forged fresh beat would keep a dead host's
 * teammates "running" in the lead's eyes, or a dead lead's teammates running on a host. So each
 * beat also carries the time its writer read on the store's clock (StoreClock) and a signature
 * over it with the writer's key: a host's own key, pinned by the lead; the team anchor for the
 * lead. Freshness is judged from that signed time, so a beat copied back later is as old as it
 * says it is, and one nobody signed is no beat at all.
 */

/** A beat's fields before it is proven: everything but the signed time and the proof. */
export type UnprovenBeat = Omit<HostRecord, 'signed_at' | 'proof'>;

function signedBytes(team: string, beat: UnprovenBeat & { signed_at: string }): Buffer {
  const { name, run, public_key, lead_key, signed_at } = beat;
  return Buffer.from(canonical({ team, name, run, public_key, lead_key, signed_at }), 'utf8');
}

/** `beat`, made at `at` on the store's clock, signed with the beating party's private key. */
export function proveBeat(beat: UnprovenBeat, team: string, at: string, privateKey: KeyObject): HostRecord {
  const proof = sign(null, signedBytes(team, { ...beat, signed_at: at }), privateKey).toString('base64');
  return { ...beat, signed_at: at, proof };
}

/**
 * How far ahead of the store's clock a beat may be signed: its writer and its reader each read
 * that clock (StoreClock) and may be this far apart.
 */
const MAX_AHEAD_MS = 1_000;

/** Whether a beat signed at `at` is dated ahead of the store's clock `now`, beyond what two readings of it can differ by. */
export function signedAhead(at: number, now: string): boolean {
  return at > Date.parse(now) + MAX_AHEAD_MS;
}

/**
 * When `beat` was made by its signed word (ms on the store's clock); undefined when `publicKey`
 * did not sign it for this team, or signed it ahead of the store's clock `now`: a beat dated in
 * the future would keep its writer alive until then, however long ago it died.
 */
export function provenAt(beat: HostRecord, team: string, publicKey: KeyObject, now: string): number | undefined {
  const at = signedAt(beat, team, publicKey);
  return at === undefined || signedAhead(at, now) ? undefined : at;
}

function signedAt(beat: HostRecord, team: string, publicKey: KeyObject): number | undefined {
  let holds: boolean;
  try {
    holds = verify(null, signedBytes(team, beat), publicKey, Buffer.from(beat.proof, 'base64'));
  } catch {
    // A key of another kind cannot have signed it.
    holds = false;
  }
  if (!holds) return undefined;
  const at = Date.parse(beat.signed_at);
  return Number.isFinite(at) ? at : undefined;
}
