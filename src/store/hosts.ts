import * as z from 'zod';
import { AgentName } from '../protocol/index.js';
import type { Subscription } from './transport.js';

/**
 * The host section of the team store: machines other than the lead's that run teammates
 * (`teams host`). Everything here is untrusted data, written by whoever can write to the
 * store: a registration is believed only with a valid enrollment MAC, an order only with the
 * team anchor's signature, a report only with the host's pinned key (src/host checks them all).
 */

/** What a host says of itself when it beats; the store adds the stamp. */
export const HostRecord = z.object({
  /** The host's name in the team: how a teammate is placed on it (`--host`). */
  name: AgentName,
  /** Its ed25519 public key (SPKI DER, base64), made at its start: its reports are signed with it. */
  public_key: z.string().min(1).max(200),
  /** HMAC of (team, name, public_key) under the enrollment secret: only a holder of the secret registers. */
  enrollment: z.string().min(1).max(200),
  /** Random per start of the host process: orders name the run they are for, so one kept from an earlier run is refused. */
  run: z.string().min(1).max(64),
  /** For a human reading `teams hosts`: the machine's own name for itself and the host process's pid there. */
  machine: z.string().max(255).optional(),
  pid: z.number().int().positive().optional(),
  /** The lead's beat only: the key of the lead process now running, which a host's teammates must have been started by. */
  lead_key: z.string().min(1).max(200).optional(),
  /** When the writer made the beat, on the store's clock as it read it: freshness is judged from this, as `proof` vouches for it. */
  signed_at: z.iso.datetime(),
  /** The writer's ed25519 signature over the team, name, run, keys and `signed_at` (src/host/beat-proof.ts). */
  proof: z.string().min(1).max(200),
});
export type HostRecord = z.infer<typeof HostRecord>;

/** A host as listed: its record and when the store last took a beat from it (unproven: anyone may write one). */
export const HostBeat = HostRecord.extend({ last_beat: z.iso.datetime() });
export type HostBeat = z.infer<typeof HostBeat>;

/** A batch of a channel: lines in order, each once, and where to go on from (opaque). */
export type ChannelBatch = { lines: string[]; next: string };

/** An append-only channel per host: lines in order, each once. A line holds no line break. */
export interface HostChannel {
  append(host: string, line: string): Promise<void>;
  /**
   * Every line after `from` (from the start without it), then every later one, each once and in
   * order, until the subscription is closed. A cursor the store cannot read is an error.
   */
  follow(host: string, listener: (batch: ChannelBatch) => void, from?: string): Promise<Subscription>;
}

export interface HostStore {
  /** Register or refresh a host, stamped with the store's clock; the stamp. */
  beat(record: HostRecord): Promise<string>;
  /** Every host with its last beat, and the store's clock now (to judge staleness by one clock); unreadable records are reported. */
  list(): Promise<{ hosts: HostBeat[]; now: string; problems: { ref: string; reason: string }[] }>;
  /** Forget a host's registration (its channels stay until the team is deleted). */
  remove(name: string): Promise<void>;
  /** Lead → host. */
  readonly orders: HostChannel;
  /** Host → lead. */
  readonly reports: HostChannel;
}

/** Refused before anything is written: a line must be one line. */
export function channelLineProblem(line: string): string | undefined {
  if (line.includes('\n') || line.includes('\r')) return 'a channel line may not hold a line break';
  if (line.trim() === '') return 'a channel line may not be blank';
  return undefined;
}
