import * as z from 'zod';
import { Held } from '../lib/index.js';
import { type MailboxEvent, type Subscription, requireMember, type TeamConfig, type TeamStore } from '../store/index.js';
import type { ModelSettings } from '../model/index.js';
import { type PermissionMode, LEAD, createSigner, KeyRing, verifySender } from '../protocol/index.js';
import type { SandboxSettings } from '../sandbox/index.js';
import { TeamBus, type TeamPaths } from '../team/index.js';
import { ParentSignal, tellLead, type AgentRole } from '../process/index.js';

/** Permission rules as the lead hands them over (`--rules`); teammate.ts parses each with the policy's RuleText. */
export const RuleTexts = z.object({ allow: z.array(z.string()), deny: z.array(z.string()) });
export type RuleTexts = z.infer<typeof RuleTexts>;

export type TeammateOptions = {
  /** The team's shared state, opened by this process; trust is not in it (see leadKey). */
  store: TeamStore;
  /** This machine's own state of the team: what the agent's tools must not see. */
  paths: TeamPaths;
  name: string;
  settings: ModelSettings;
  cwd: string;
  permissionMode: PermissionMode;
  planMode: boolean;
  /** The lead's public key, as the process that started this one handed it over. */
  leadKey: string;
  sandbox: SandboxSettings;
  /** The project's permission rules as text, from the lead at spawn; a change later comes as a signed rules_set. */
  rules: RuleTexts;
  /** The MCP servers as the lead read them, as JSON from the spawn (teammate.ts parses them): each runs inside this teammate's sandbox. */
  mcpServers: string;
  /** The lead's session, where this teammate's conversation is journaled; `resume`: go on with it. */
  journal: { session: string; resume: boolean };
  /** The agent definition it was spawned as, from the lead: its role's prompt and the tools it may call. */
  agent?: AgentRole;
};

/** What reaches a teammate from outside: its mail, being told to stop, being told to compact (/compact). */
export type TeammateInput = { type: 'mail'; event: MailboxEvent } | { type: 'stop'; lastText: string } | { type: 'compact'; instructions?: string };

export type StartedTeammate = {
  config: TeamConfig;
  bus: TeamBus;
  subscription: Subscription;
  /** Input from the moment the mailbox is watched, held until the rest of the teammate handles it. */
  input: Held<TeammateInput>;
};

/**
 * What a teammate does before it tells the lead it is ready, and no more, since the lead waits
 * for it: its key handed over, the team's keys taken, its mailbox watched. Mail already
 * waiting (the task, at least) and whatever follows is held, not handled: the model loop, the
 * tools and the policy load after "ready" (teammate.ts, another chunk of the bundle).
 */
export async function startTeammate(options: TeammateOptions): Promise<StartedTeammate> {
  const { store, name } = options;
  const config = await store.roster.load();
  if (!config) throw new Error(`no team '${store.team}'`);
  requireMember(config, name);
  const keys = new KeyRing();
  keys.set(LEAD, options.leadKey);
  const input = new Held<TeammateInput>();
  process.on('message', (raw) => {
    const signal = ParentSignal.safeParse(raw);
    if (!signal.success) return;
    if (signal.data.type === 'compact') {
      input.push({ type: 'compact', instructions: signal.data.instructions });
      return;
    }
    for (const [member, key] of Object.entries(signal.data.keys)) keys.set(member, key);
    tellLead({ type: 'keys_ack', seq: signal.data.seq });
  });
  const signer = createSigner();
  tellLead({ type: 'key', public_key: signer.publicKey });
  const bus = new TeamBus(store, signer);
  await bus.clock.start();
  const subscription = await store.mailboxes.subscribe(name, (event) => input.push({ type: 'mail', event }), {
    // Believed only from its signature: a forged message is set aside, never handled.
    admit: (envelope) => verifySender(envelope, keys, name),
  });
  // A teammate never outlives its lead: the IPC channel closes however the lead dies, before
  // this line (then there is no event left to hear) or after it.
  if (process.connected) process.once('disconnect', () => input.push({ type: 'stop', lastText: 'the lead went away' }));
  else input.push({ type: 'stop', lastText: 'the lead went away' });
  process.once('SIGTERM', () => input.push({ type: 'stop', lastText: 'terminated' }));
  tellLead({ type: 'ready' });
  return { config, bus, subscription, input };
}
