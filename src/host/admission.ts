import type { KeyObject } from 'node:crypto';
import { errorMessage } from '../lib/index.js';
import { importPublicKey } from '../protocol/index.js';
import type { HostBeat } from '../store/index.js';
import { enrollmentHolds } from './enrollment.js';
import type { HostPins } from './pins.js';

export type Admitted = { ok: true; key: KeyObject; first: boolean } | { ok: false; reason: string };

/**
 * Whether the lead believes a registration found in the store: its MAC proves the enrollment
 * secret, and its key is the one pinned for the name (pinned now on first sight).
 */
export function admitHost(beat: Pick<HostBeat, 'name' | 'public_key' | 'enrollment'>, team: string, secret: Buffer, pins: HostPins): Admitted {
  if (!enrollmentHolds(secret, team, beat.name, beat.public_key, beat.enrollment)) {
    return { ok: false, reason: `host ${beat.name}'s registration does not prove the enrollment secret: refused (give it the token from \`teams hosts key\`)` };
  }
  let key: KeyObject;
  try {
    key = importPublicKey(beat.public_key);
  } catch (error) {
    return { ok: false, reason: `host ${beat.name}'s key is not usable: ${errorMessage(error)}` };
  }
  const pinned = pins.pin(beat.name, beat.public_key);
  return pinned.ok ? { ok: true, key, first: pinned.first } : pinned;
}
