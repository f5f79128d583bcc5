import { existsSync } from 'node:fs';
import { errorMessage } from '../lib/index.js';
import { LEAD, type KeyRing } from '../protocol/index.js';
import { HOST_STALE_MS, type HostBeat, type StoreClock, type TeamStore } from '../store/index.js';
import type { KeyObject } from 'node:crypto';
import { provenAt } from './beat-proof.js';
import type { TeamPaths } from '../team/index.js';
import { admitHost } from './admission.js';
import { anchorPath, hostPins, teamAnchor } from './host-files.js';
import type { KeyPair } from './key-file.js';
import { BEAT_MS, leadBeatRecord } from './lead-beat.js';
import { lineId } from './reporter.js';
import { ReportGate } from './reports.js';
import { RemoteSpawner } from './remote-spawner.js';

/** How often the lead looks at its hosts' beats: a host gone quiet is found within HOST_STALE_MS + this. */
const WATCH_MS = 250;

/** A host's spawner, and the pinned key its beats are proven with. */
type Attached = { spawner: RemoteSpawner; key: KeyObject; detach: () => void };

/**
 * The lead's side of its hosts. Once the team has an anchor (`teams hosts key` made it: no host
 * can enrol without it, so a team on one machine does none of this), it beats for the lead,
 * attaches a RemoteSpawner for each host whose registration it believes, and takes a host gone
 * quiet for dead: its teammates exit unexpectedly. A host registered again (a new run) replaces
 * its spawner once its old teammates are gone.
 */
export class RemoteHosts {
  private readonly attached = new Map<string, Attached>();
  /** Registrations refused, by host and run: said once, not at every look. */
  private readonly refused = new Set<string>();
  /**
   * Registrations whose latest beat was not signed by their key, said once. Not refused: whoever
   * writes to the store can overwrite a host's beat for a moment, and the host's next signed
   * beat must still be believed.
   */
  private readonly unsigned = new Set<string>();
  private anchor: KeyPair | undefined;
  private timer: NodeJS.Timeout | undefined;
  private readonly run = lineId();
  private lastBeat = 0;
  private sharedKeys = '';
  private looking: Promise<void> | undefined;

  constructor(
    private readonly deps: {
      store: TeamStore;
      /** The store's clock as this lead reads it: each beat is signed with the time it was made. */
      clock: StoreClock;
      paths: TeamPaths;
      keys: KeyRing;
      leadKey: string;
      graceMs: number;
      /** New keys came from a host: the lead's local teammates must learn them. */
      keysChanged: () => void;
      problem: (what: string, reason: string) => void;
      /** A host's spawner, to route its teammates to until `detach`. */
      attach: (host: string, spawner: RemoteSpawner) => () => void;
    },
  ) {}

  /** Look now and then every WATCH_MS until closed. */
  async start(): Promise<void> {
    await this.look();
    this.timer = setInterval(() => {
      this.looking ??= this.look().finally(() => (this.looking = undefined));
    }, WATCH_MS);
  }

  /** One look: beat, believe new registrations, mark quiet hosts, hand on changed keys. */
  async look(): Promise<void> {
    try {
      if (!this.anchor) {
        if (!existsSync(anchorPath(this.deps.paths))) return;
        this.anchor = teamAnchor(this.deps.paths);
      }
      if (Date.now() - this.lastBeat >= BEAT_MS) {
        this.lastBeat = Date.now();
        const { store, leadKey, clock } = this.deps;
        await store.hosts.beat(leadBeatRecord(this.anchor, store.team, this.run, leadKey, clock.stamp()));
      }
      const { hosts, now } = await this.deps.store.hosts.list();
      for (const beat of hosts) if (beat.name !== LEAD) await this.consider(beat, now, this.anchor);
      for (const [name, { spawner, key }] of this.attached) {
        // Only a beat the host signed counts: one written by anyone else leaves the host to go quiet.
        const beat = hosts.find((h) => h.name === name && h.run === spawner.run);
        spawner.beatAt(this.provenIso(beat, key, now), now);
      }
      const keys = JSON.stringify(this.deps.keys.entries());
      if (keys !== this.sharedKeys) {
        this.sharedKeys = keys;
        for (const { spawner } of this.attached.values()) await spawner.shareKeys();
      }
    } catch (error) {
      this.deps.problem('watching the hosts', errorMessage(error));
    }
  }

  private provenIso(beat: HostBeat | undefined, key: KeyObject, now: string): string | undefined {
    const at = beat === undefined ? undefined : provenAt(beat, this.deps.store.team, key, now);
    return at === undefined ? undefined : new Date(at).toISOString();
  }

  private async consider(beat: HostBeat, now: string, anchor: KeyPair): Promise<void> {
    const current = this.attached.get(beat.name);
    if (current?.spawner.run === beat.run) return;
    if (current && current.spawner.running().length > 0) return;
    const seen = `${beat.name} ${beat.run}`;
    if (this.refused.has(seen)) return;
    const admitted = admitHost(beat, this.deps.store.team, anchor.secret, hostPins(this.deps.paths));
    if (!admitted.ok) {
      this.refused.add(seen);
      this.deps.problem(`host ${beat.name} was not admitted`, admitted.reason);
      return;
    }
    const proven = this.provenIso(beat, admitted.key, now);
    if (proven === undefined) {
      if (!this.unsigned.has(seen)) this.deps.problem(`host ${beat.name} is not attached yet`, 'its latest beat is not signed by the key it registered with (written by someone else?): waiting for one it signed');
      this.unsigned.add(seen);
      return;
    }
    // Only a fresh registration replaces a spawner: a stale one is a host that is not running.
    if (Date.parse(now) - Date.parse(proven) > HOST_STALE_MS) return;
    if (current) {
      current.detach();
      await current.spawner.close();
    }
    const spawner = new RemoteSpawner(beat.name, beat.run, {
      store: this.deps.store,
      anchor,
      gate: new ReportGate(admitted.key, beat.name),
      keys: this.deps.keys,
      leadKey: this.deps.leadKey,
      graceMs: this.deps.graceMs,
      keysChanged: this.deps.keysChanged,
      problem: this.deps.problem,
    });
    spawner.beatAt(proven, now);
    await spawner.open();
    this.attached.set(beat.name, { spawner, key: admitted.key, detach: this.deps.attach(beat.name, spawner) });
  }

  /** Stop beating and looking: the hosts end this lead's teammates once its beat is stale. */
  async close(): Promise<void> {
    clearInterval(this.timer);
    await this.looking;
    for (const { spawner } of this.attached.values()) await spawner.close();
    if (this.anchor) await this.deps.store.hosts.remove(LEAD).catch((error: unknown) => this.deps.problem("removing the lead's beat", errorMessage(error)));
  }
}
