import type { KeyObject } from 'node:crypto';
import * as z from 'zod';
import { AgentName, PermissionMode } from '../protocol/index.js';
import { SandboxSettings } from '../sandbox/index.js';
import { SessionId } from '../store/index.js';
import { AgentRole } from '../process/index.js';
import { openSignedLine, type Opened } from './signed-line.js';

/**
 * What the lead tells a host, each order signed by the team anchor and addressed to one run of
 * one host (its name and the run id it registered with), so an order copied from an earlier
 * run or to another host is refused; within a run each order id is taken once.
 */
const Keys = z.record(AgentName, z.string().min(1).max(200));

/** A teammate to start, as the lead's supervisor would: the spec's fields, the rules as text. */
export const RemoteSpec = z.object({
  name: AgentName,
  planMode: z.boolean(),
  permissionMode: PermissionMode,
  sandbox: SandboxSettings,
  rules: z.object({ allow: z.array(z.string()), deny: z.array(z.string()), network: z.array(z.string()) }),
  model: z.string().min(1).max(200),
  journal: z.object({ session: SessionId, resume: z.boolean() }),
  agent: AgentRole.optional(),
});
export type RemoteSpec = z.infer<typeof RemoteSpec>;

export const OrderBody = z.discriminatedUnion('type', [
  /** `lead_key`: the lead process's own key, which the teammate believes the lead's messages by; `keys`: the team's now. */
  z.object({ type: z.literal('spawn'), spec: RemoteSpec, lead_key: z.string().min(1).max(200), keys: Keys }),
  z.object({ type: z.literal('keys'), keys: Keys }),
  z.object({ type: z.literal('compact'), name: AgentName, instructions: z.string().max(2000).optional() }),
  z.object({ type: z.literal('expect_exit'), name: AgentName, grace_ms: z.number().int().nonnegative().max(600_000) }),
  z.object({ type: z.literal('kill_all') }),
]);
export type OrderBody = z.infer<typeof OrderBody>;

export const Order = z.object({
  id: z.string().regex(/^[A-Za-z0-9_-]{8,64}$/),
  to: AgentName,
  run: z.string().min(1).max(64),
  body: OrderBody,
});
export type Order = z.infer<typeof Order>;

/**
 * A host's check of the orders it reads: the anchor's signature, its own name and run, an id not
 * seen before. Pure but for the ids it remembers.
 */
export class OrderGate {
  private readonly seen = new Set<string>();

  constructor(
    private readonly anchorKey: KeyObject,
    private readonly host: string,
    private readonly run: string,
  ) {}

  admit(line: string): Opened<Order> {
    const opened = openSignedLine(line, this.anchorKey, Order, 'an order');
    if (!opened.ok) return opened;
    const order = opened.value;
    if (order.to !== this.host) return { ok: false, reason: `order ${order.id} is for host ${order.to}, not ${this.host}` };
    if (order.run !== this.run) return { ok: false, reason: `order ${order.id} is for another run of ${this.host} (an old order, or one replayed)` };
    if (this.seen.has(order.id)) return { ok: false, reason: `order ${order.id} was already carried out: a replay` };
    this.seen.add(order.id);
    return opened;
  }
}
