import { Refused, errorMessage } from '../lib/index.js';
import { LEAD, type KeyRing } from '../protocol/index.js';
import type { TeamStore } from '../store/index.js';
import type { TeamPaths } from '../team/index.js';
import { admitHost } from './admission.js';
import { hostPins, teamAnchor } from './host-files.js';
import type { KeyPair } from './key-file.js';
import { BEAT_MS, HOST_STALE_MS, leadBeatRecord } from './lead-beat.js';
import { lineId } from './reporter.js';
import { ReportGate } from './reports.js';
import { RemoteSpawner } from './remote-spawner.js';

/** How often the lead looks at its hosts' beats: a host gone quiet is found well within HOST_STALE_MS + this. */
const WATCH_MS = 250;

/**
 * The lead's side of its hosts: one RemoteSpawner per host it has placed a teammate on, its own
 * beat (from the first placement on: a host ends the teammates of a lead that stops beating), and
 * the watch that takes a host gone quiet for dead.
 */
export class RemoteHosts {
  private readonly spawners = new Map<string, RemoteSpawner>();
  private anchor: KeyPair | undefined;
  private timer: NodeJS.Timeout | undefined;
  private readonly run = lineId();
  private lastBeat = 0;
  private sharedKeys = '';
  private closed = false;
  /** Each host's last beat seen, by the store's clock. */
  private readonly seen = new Map<string, string>();

  constructor(
    private readonly deps: {
      store: TeamStore;
      paths: TeamPaths;
      keys: KeyRing;
      leadKey: string;
      graceMs: number;
      /** New keys came from a host: the lead's local teammates must learn them. */
      keysChanged: () => void;
      problem: (what: string, reason: string) => void;
      /** A spawner made for a host: the lead routes to it and hears its exits. */
      added: (spawner: RemoteSpawner) => void;
    },
  ) {}

  /** The spawner for `host`, once its registration is believed and it beats; a clear refusal otherwise. */
  async spawnerFor(host: string): Promise<RemoteSpawner> {
    if (this.closed) throw new Refused('the lead is stopping');
    const { store, paths } = this.deps;
    const { hosts, now } = await store.hosts.list();
    const beat = hosts.find((h) => h.name === host);
    if (!beat) {
      const known = hosts.map((h) => h.name).filter((n) => n !== LEAD);
      throw new Refused(`no host '${host}' has registered with team '${store.team}'${known.length > 0 ? ` (registered: ${known.join(', ')})` : '; start one there with `teams host --trust <token>` (`teams hosts key` prints the token)'}`);
    }
    const age = Date.parse(now) - Date.parse(beat.last_beat);
    if (age > HOST_STALE_MS) throw new Refused(`host ${host} has not beaten for ${Math.round(age / 1000)} s: it is not running`);
    const existing = this.spawners.get(host);
    if (existing?.run === beat.run) return existing;
    if (existing && existing.running().length > 0) throw new Refused(`host ${host} restarted while its teammates ran here; wait until they are marked crashed`);
    this.anchor ??= teamAnchor(paths);
    const admitted = admitHost(beat, store.team, this.anchor.secret, hostPins(paths));
    if (!admitted.ok) throw new Refused(admitted.reason);
    await existing?.close();
    const spawner = new RemoteSpawner(host, beat.run, {
      store,
      anchor: this.anchor,
      gate: new ReportGate(admitted.key, host),
      keys: this.deps.keys,
      leadKey: this.deps.leadKey,
      graceMs: this.deps.graceMs,
      keysChanged: this.deps.keysChanged,
      problem: this.deps.problem,
    });
    await spawner.open();
    this.spawners.set(host, spawner);
    this.seen.set(host, beat.last_beat);
    this.deps.added(spawner);
    await this.beat();
    this.timer ??= setInterval(() => void this.tick(), WATCH_MS);
    return spawner;
  }

  private async beat(): Promise<void> {
    if (!this.anchor) return;
    this.lastBeat = Date.now();
    await this.deps.store.hosts.beat(leadBeatRecord(this.anchor, this.deps.store.team, this.run));
  }

  /** The lead's beat, the hosts' beats looked at, and the team's keys handed on when they changed. */
  private async tick(): Promise<void> {
    try {
      if (Date.now() - this.lastBeat >= BEAT_MS / 2) await this.beat();
      const busy = [...this.spawners.values()].filter((s) => s.running().length > 0);
      if (busy.length === 0) return;
      const { hosts, now } = await this.deps.store.hosts.list();
      for (const spawner of busy) {
        // A record gone (the host deregistered) counts from its last beat seen: the exits it
        // reported before going may still be on their way.
        const beat = hosts.find((h) => h.name === spawner.host && h.run === spawner.run);
        if (beat) this.seen.set(spawner.host, beat.last_beat);
        const last = beat?.last_beat ?? this.seen.get(spawner.host);
        if (last === undefined || Date.parse(now) - Date.parse(last) > HOST_STALE_MS) spawner.hostGone();
      }
      const keys = JSON.stringify(this.deps.keys.entries());
      if (keys !== this.sharedKeys) {
        this.sharedKeys = keys;
        for (const spawner of busy) await spawner.shareKeys();
      }
    } catch (error) {
      this.deps.problem('watching the hosts', errorMessage(error));
    }
  }

  /** Stop beating and watching: the hosts end this lead's teammates once its beat is stale. */
  async close(): Promise<void> {
    this.closed = true;
    clearInterval(this.timer);
    for (const spawner of this.spawners.values()) await spawner.close();
    if (this.anchor) await this.deps.store.hosts.remove(LEAD).catch((error: unknown) => this.deps.problem("removing the lead's beat", errorMessage(error)));
  }
}
