import { hostname } from 'node:os';
import { errorMessage } from '../lib/index.js';
import { LEAD } from '../protocol/index.js';
import { StoreClock, type Subscription, type TeamStore } from '../store/index.js';
import { proveBeat, type UnprovenBeat } from './beat-proof.js';
import type { TeamPaths } from '../team/index.js';
import { enrollmentMac } from './enrollment.js';
import { HostTeammates } from './host-teammates.js';
import type { KeyPair } from './key-file.js';
import { BEAT_MS, LEAD_STALE_MS, leadBeat } from './lead-beat.js';
import { OrderGate, type Order } from './orders.js';
import { hostReporter, lineId } from './reporter.js';
import type { Trust } from './trust-token.js';

export type HostOptions = {
  store: TeamStore;
  /** This machine's own state of the team: its teammates' logs and workspace, hidden from their sandboxes. */
  paths: TeamPaths;
  name: string;
  trust: Trust;
  /** The host's own key pair, kept in its state root: the lead pins it on first sight. */
  key: KeyPair;
  /** Where its teammates work. */
  cwd: string;
  /** Its teammates' model environment: this machine's own key or offline endpoint. */
  env: Record<string, string>;
  graceMs: number;
  /** What the host has to say to its human (refused orders, the lead gone). */
  say: (line: string) => void;
};

/**
 * `teams host`: waits for the team, registers and beats, and carries out the orders the anchor
 * signed for this run. It ends its teammates when the lead stops beating, and when it stops.
 */
export class HostRunner {
  private readonly run = lineId();
  private readonly teammates: HostTeammates;
  /** The store's clock as read here: each beat is signed with the time it was made. */
  private readonly clock: StoreClock;
  private beats: NodeJS.Timeout | undefined;
  private orders: Subscription | undefined;
  private stopping: Promise<void> | undefined;
  /** Orders carried out one at a time, in the channel's order. */
  private queue: Promise<void> = Promise.resolve();

  constructor(private readonly options: HostOptions) {
    if (options.name === LEAD) throw new Error(`'${LEAD}' is the lead's own name: give the host another (--name)`);
    const report = hostReporter(options.store, options.name, options.key);
    this.clock = new StoreClock(options.store);
    this.teammates = new HostTeammates(options.paths, { env: options.env, cwd: options.cwd, graceMs: options.graceMs, logs: options.store.agentLogs }, report, options.say);
  }

  /** Registered and following its orders once this resolves; `waitForTeam` resolves first, once the roster exists. */
  async start(waitForTeam: () => Promise<void>): Promise<void> {
    const { store, name, key, trust } = this.options;
    await waitForTeam();
    await this.clock.start();
    const gate = new OrderGate(trust.anchorKey, name, this.run);
    const record: UnprovenBeat = { name, public_key: key.publicKey, enrollment: enrollmentMac(trust.secret, store.team, name, key.publicKey), run: this.run, machine: hostname(), pid: process.pid };
    await store.hosts.beat(this.proven(record));
    // Orders from the start of the channel: those of earlier runs are refused by the gate, quietly.
    this.orders = await store.hosts.orders.follow(name, (batch) => {
      for (const line of batch.lines) {
        const admitted = gate.admit(line);
        if (!admitted.ok) {
          if (!/another run/.test(admitted.reason)) this.options.say(`refused: ${admitted.reason}`);
          continue;
        }
        this.queue = this.queue.then(() => this.carryOut(admitted.value)).catch((error: unknown) => this.options.say(`order ${admitted.value.id}: ${errorMessage(error)}`));
      }
    });
    this.beats = setInterval(() => void this.beat(record), BEAT_MS);
    this.options.say(`host ${name} registered for team '${store.team}' (run ${this.run}); waiting for orders`);
  }

  private proven(record: UnprovenBeat) {
    return proveBeat(record, this.options.store.team, this.clock.stamp(), this.options.key.privateKey);
  }

  private async beat(record: UnprovenBeat): Promise<void> {
    if (this.stopping) return;
    try {
      await this.options.store.hosts.beat(this.proven(record));
      if (this.teammates.running().length === 0) return;
      const { hosts, now } = await this.options.store.hosts.list();
      const lead = leadBeat(hosts, now, this.options.trust.anchorKey, this.options.store.team);
      if (lead === undefined || lead.ageMs > LEAD_STALE_MS) {
        this.options.say(`the lead has not beaten for ${lead === undefined ? 'ever' : `${Math.round(lead.ageMs / 1000)} s`}: ending its teammates here`);
        await this.teammates.killAll();
      } else {
        // A lead started again after a crash: the teammates the dead one started are its no longer.
        const ended = await this.teammates.endAllBut(lead.leadKey);
        if (ended.length > 0) this.options.say(`a new lead process is running: ended ${ended.join(', ')}, started by the lead before it`);
      }
    } catch (error) {
      this.options.say(`beat: ${errorMessage(error)}`);
    }
  }

  private async carryOut(order: Order): Promise<void> {
    const { body } = order;
    if (body.type === 'spawn') {
      this.options.say(`starting ${body.spec.name}`);
      await this.teammates.spawn(order.id, body);
    } else if (body.type === 'keys') await this.teammates.keys(body.keys);
    else if (body.type === 'compact') this.teammates.compact(body.name, body.instructions);
    else if (body.type === 'expect_exit') this.teammates.expectExit(body.name, body.grace_ms);
    else await this.teammates.killAll();
  }

  /** Its teammates ended first, then it deregisters. */
  stop(): Promise<void> {
    this.stopping ??= this.stopOnce();
    return this.stopping;
  }

  private async stopOnce(): Promise<void> {
    clearInterval(this.beats);
    this.clock.stop();
    await this.orders?.close();
    await this.teammates.killAll();
    await this.queue;
    await this.options.store.hosts.remove(this.options.name);
  }
}
