import { errorMessage } from '../lib/index.js';
import { LEAD, importPublicKey } from '../protocol/index.js';
import { HOST_STALE_MS, type HostBeat, type LivenessView, type TeamStore } from '../store/index.js';
import type { TeamPaths } from '../team/index.js';
import { provenAt, signedAhead } from './beat-proof.js';
import { hostPins } from './host-files.js';
import type { HostPins } from './pins.js';

/**
 * The hosts as the lead's machine judges them: a host is running only while a beat signed with
 * its pinned key is fresh. What the store says of a host (its stamp, its record) is anyone's to
 * write; `teams hosts`, `teams member remove` and every liveness check outside the running lead
 * read the hosts through this.
 */
export type JudgedHost = {
  beat: HostBeat;
  /** alive/stale: by its proven beat; unproven: no pinned key vouches for the beat (`why`). */
  state: 'alive' | 'stale' | 'unproven';
  /** Ms since its proven beat, on the store's clock. */
  ageMs?: number;
  /** Its proven beat's time. */
  provenAt?: string;
  why?: string;
};

export function judgeHost(beat: HostBeat, now: string, team: string, pins: HostPins): JudgedHost {
  const pinned = pins.keyOf(beat.name);
  if (pinned === undefined) return { beat, state: 'unproven', why: 'no key is pinned for it yet: the lead pins it when it first admits the host' };
  if (pinned !== beat.public_key) return { beat, state: 'unproven', why: 'it beats with a key other than the one pinned for it' };
  let at: number | undefined;
  try {
    at = provenAt(beat, team, importPublicKey(pinned), now);
  } catch (error) {
    return { beat, state: 'unproven', why: `its pinned key is not usable: ${errorMessage(error)}` };
  }
  if (at === undefined && signedAhead(Date.parse(beat.signed_at), now)) return { beat, state: 'unproven', why: `its beat is dated ${beat.signed_at}, ahead of the store's clock (${now})` };
  if (at === undefined) return { beat, state: 'unproven', why: 'its beat is not signed by its pinned key (written by someone else)' };
  const ageMs = Math.max(0, Date.parse(now) - at);
  return { beat, state: ageMs <= HOST_STALE_MS ? 'alive' : 'stale', ageMs, provenAt: new Date(at).toISOString() };
}

/** Every host but the lead's own beat, judged. */
export async function judgeHosts(store: TeamStore, paths: TeamPaths): Promise<{ hosts: JudgedHost[]; now: string; problems: { ref: string; reason: string }[] }> {
  const { hosts, now, problems } = await store.hosts.list();
  const pins = hostPins(paths);
  return { hosts: hosts.filter((h) => h.name !== LEAD).map((h) => judgeHost(h, now, store.team, pins)), now, problems };
}

/** What `memberIsAlive` needs to judge members on hosts: each host's proven beat and the store's clock now. */
export async function hostLiveness(store: TeamStore, paths: TeamPaths): Promise<LivenessView> {
  const { hosts, now } = await judgeHosts(store, paths);
  const proven = hosts.flatMap((h) => (h.provenAt === undefined ? [] : [[h.beat.name, { last_beat: h.provenAt }] as const]));
  return { hosts: new Map(proven), now: new Date(now) };
}
