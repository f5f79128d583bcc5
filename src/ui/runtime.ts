import type { SandboxStatus } from '../sandbox/index.js';
import type { LeadEvent, LeadOp, LeadReply, LeadSessionStart, LeadSnapshot } from '../lead/index.js';
import type { TeamStore } from '../store/index.js';
import type { TeamPaths } from '../team/index.js';
import type { McpServerStatus } from '../tools/index.js';

/** What the REPL reads of the team's shared state: for its slash commands and its first screen. */
export type ReplStore = {
  readonly team: string;
  readonly roster: Pick<TeamStore['roster'], 'load'>;
  readonly requests: Pick<TeamStore['requests'], 'list'>;
  readonly audit: Pick<TeamStore['audit'], 'read'>;
  readonly mailboxes: Pick<TeamStore['mailboxes'], 'peek'>;
  /** Followed while a teammate's view is shown. */
  readonly agentLogs: Pick<TeamStore['agentLogs'], 'follow'>;
  /** /tasks reads the board; the task and team panels follow it. */
  readonly tasks: Pick<TeamStore['tasks'], 'list' | 'watch'>;
  /** /resume lists the lead's sessions and shows the one it goes on with. */
  readonly sessions?: Pick<TeamStore['sessions'], 'list' | 'read'>;
};

/**
 * What the REPL uses of the lead runtime: its events, one way to command it (`submit`, the
 * same ops another terminal sends), a look at it now (`snapshot`), and the facts the header
 * shows. LeadRuntime satisfies it as is; tests and the bench may pass a small stand-in.
 */
export interface ReplRuntime {
  readonly events: { subscribe(listener: (event: LeadEvent) => void): () => void };
  submit(op: LeadOp): Promise<LeadReply>;
  snapshot(): Promise<LeadSnapshot>;
  readonly model: { readonly label: string };
  /** How agents' commands run: the header says so, loudly when approvals do not bind. */
  readonly sandbox: SandboxStatus;
  /** `paths` names the team's state, which a preview never reads (a stand-in without it reads all of cwd). */
  readonly options: {
    readonly cwd: string;
    readonly paths?: TeamPaths;
    readonly settings: { readonly model: string; readonly offline: boolean };
    /** The store the team is in: empty for the file store under --home. */
    readonly storeDescriptor?: string;
  };
  /** The team's shared state, read only: every change goes through `submit`. */
  readonly store: ReplStore;
  /**
   * The session the lead journals into; a resumed one's earlier conversation opens the
   * transcript, after what the lead put right of an earlier lead's leftovers as it started.
   */
  readonly session?: Pick<LeadSessionStart, 'id' | 'resumed' | 'earlier' | 'problems' | 'recovered' | 'spent' | 'notices'>;
  /** The lead's own MCP servers: `/mcp` lists them, and the first screen says which failed to start. */
  readonly mcp?: { statuses(): McpServerStatus[] };
}
