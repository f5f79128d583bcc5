import { after, describe } from 'node:test';
import { join } from 'node:path';
import type { Subscription, TeamStore } from '../../src/store/team-store.js';
import { DIST, killAll, spawnNode, type Child } from '../helpers/children.js';
import { waitFor } from '../helpers/wait.js';
import { agentLogCases } from './conformance-agent-logs.js';
import { auditCases } from './conformance-audit.js';
import { deleteCases } from './conformance-delete.js';
import { deliverTwiceCases } from './conformance-deliver-twice.js';
import { mailboxCases } from './conformance-mailboxes.js';
import { mailboxRaceCases } from './conformance-mailbox-races.js';
import { requestCases } from './conformance-requests.js';
import { rosterCases } from './conformance-roster.js';
import { sessionCases } from './conformance-sessions.js';
import { taskCases } from './conformance-tasks.js';
import { hostCases } from './conformance-hosts.js';

/** A team store backend under test. */
export type StoreFactory = {
  /** A fresh, empty store: what any process needs to open it, as a string a command line carries. */
  create(): Promise<string>;
  /** Open the store a descriptor names, in this process. */
  open(descriptor: string): Promise<TeamStore>;
  /** The compiled module that exports `openStore(descriptor)`, the same as `open`: child processes import it. */
  opener: string;
  /** The backend's own hook: put an entry in `agent`'s mailbox that it cannot read as a message. */
  injectUnreadable(descriptor: string, agent: string): Promise<void>;
  /** The backend's own hook: make the stored creation of board task `id` unreadable, as a torn or corrupt record would be. */
  damageTask(descriptor: string, id: string): Promise<void>;
};

const CHILD = join(DIST, 'test', 'fixtures', 'store-child.js');

/** What every case gets: fresh stores, child processes on them, and cleanup that runs even when a case fails. */
export type Kit = {
  factory: StoreFactory;
  /** A fresh store with nothing in it, open in this process. */
  empty(): Promise<{ descriptor: string; store: TeamStore }>;
  /** A fresh team (the lead alone on its roster), open in this process. */
  team(): Promise<{ descriptor: string; store: TeamStore }>;
  /** The same store opened again in this process, as another process would open it. */
  reopen(descriptor: string): Promise<TeamStore>;
  /** A watch or subscription to close when the suite ends, whatever happened to its case. */
  keep(subscription: Subscription): Subscription;
  /** A process opening the same store to play `role` (test/fixtures/store-child.ts). */
  child(descriptor: string, role: string, ...args: string[]): Child;
  /** Once every child says "ready", tell them all to go at once. */
  go(children: readonly Child[]): Promise<void>;
};

/** The lines a child has written so far. */
export function linesOf(child: Child): string[] {
  return child.stdout().split('\n').filter((line) => line !== '');
}

/** The suite's groups of cases, each registered by its own conformance-*.ts. */
const GROUPS = {
  roster: rosterCases,
  requests: requestCases,
  audit: auditCases,
  mailboxes: mailboxCases,
  'mailbox races': mailboxRaceCases,
  'deliver twice': deliverTwiceCases,
  sessions: sessionCases,
  tasks: taskCases,
  'agent logs': agentLogCases,
  delete: deleteCases,
  hosts: hostCases,
} satisfies Record<string, (kit: Kit) => void>;

export type CaseGroup = keyof typeof GROUPS;

/**
 * The cases every team store must pass, registered with node:test under `name`. A backend
 * passes when its own test file calls this with its factory (the file store:
 * test/store/file-store.test.ts). `only`: just these groups, for a backend that is still
 * being built (it passes once it runs them all).
 */
export function storeConformance(name: string, factory: StoreFactory, options: { only?: readonly CaseGroup[] } = {}): void {
  describe(`${name} conforms to the team store`, () => {
    const stores: TeamStore[] = [];
    const subscriptions: Subscription[] = [];
    after(async () => {
      for (const subscription of subscriptions.splice(0)) await subscription.close();
      for (const store of stores.splice(0)) await store.close();
      await killAll();
    });
    const open = async (descriptor: string) => {
      const store = await factory.open(descriptor);
      stores.push(store);
      return store;
    };
    const kit: Kit = {
      factory,
      async empty() {
        const descriptor = await factory.create();
        return { descriptor, store: await open(descriptor) };
      },
      async team() {
        const made = await kit.empty();
        await made.store.roster.ensure();
        return made;
      },
      reopen: open,
      keep(subscription) {
        subscriptions.push(subscription);
        return subscription;
      },
      child: (descriptor, role, ...args) => spawnNode(CHILD, [factory.opener, descriptor, role, ...args], { stdio: ['pipe', 'pipe', 'pipe'] }),
      async go(children) {
        await waitFor(() => children.every((c) => linesOf(c).includes('ready') || c.process.exitCode !== null), 'every child to be ready');
        for (const child of children) if (child.process.exitCode === null) child.process.stdin?.write('go\n');
      },
    };
    const chosen = new Set<string>(options.only ?? Object.keys(GROUPS));
    for (const [group, cases] of Object.entries(GROUPS)) if (chosen.has(group)) cases(kit);
  });
}

/** Wait for a child to exit, and fail with its stderr if it did not succeed. */
export async function succeeded(child: Child, what: string, timeoutMs = 60_000): Promise<void> {
  await waitFor(() => child.process.exitCode !== null || child.process.signalCode !== null, what, timeoutMs);
  if (child.process.exitCode !== 0) throw new Error(`${what}: exited ${child.process.exitCode ?? child.process.signalCode}: ${child.stderr()}`);
}
