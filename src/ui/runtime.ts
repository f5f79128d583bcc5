import type { SandboxStatus } from '../sandbox/index.js';
import type { Draft, Envelope, PermissionMode, RequestRecord } from '../protocol/index.js';
import type { HumanDecision, LeadEvent, LeadSessionStart } from '../lead/index.js';
import type { TeamStore } from '../store/index.js';
import type { TeamPaths } from '../team/index.js';
import type { Spawned, SpawnSpec } from '../tools/index.js';

/** What the REPL reads of the team's shared state: for its slash commands and its first screen. */
export type ReplStore = {
  readonly team: string;
  readonly roster: Pick<TeamStore['roster'], 'load'>;
  readonly requests: Pick<TeamStore['requests'], 'list'>;
  readonly audit: Pick<TeamStore['audit'], 'read' | 'append'>;
  readonly mailboxes: Pick<TeamStore['mailboxes'], 'peek'>;
  /** Followed while a teammate's view is shown. */
  readonly agentLogs: Pick<TeamStore['agentLogs'], 'follow'>;
  /** /tasks reads the board and /task changes it; the task and team panels follow it. */
  readonly tasks: Pick<TeamStore['tasks'], 'list' | 'watch' | 'create' | 'update'>;
};

/**
 * What the REPL uses of the lead runtime. LeadRuntime satisfies it as is; tests and the
 * bench may pass a small stand-in with the same shape.
 */
export interface ReplRuntime {
  readonly events: { subscribe(listener: (event: LeadEvent) => void): () => void };
  readonly model: { readonly label: string };
  /** How agents' commands run: the header says so, loudly when approvals do not bind. */
  readonly sandbox: SandboxStatus;
  /** `paths` names the team's state, which a preview never reads (a stand-in without it reads all of cwd). */
  readonly options: { readonly cwd: string; readonly paths?: TeamPaths; readonly settings: { readonly model: string; readonly offline: boolean } };
  readonly store: ReplStore;
  readonly loop: { readonly busy: boolean; interrupt(): void };
  readonly decisions: {
    decide(requestId: string, decision: HumanDecision): Promise<RequestRecord>;
    pendingForHuman(): Promise<RequestRecord[]>;
  };
  readonly teammates: {
    spawn(spec: SpawnSpec): Promise<Spawned>;
    requestShutdown(name: string, reason: string | undefined): Promise<{ requestId: string }>;
    respawn(name: string): Promise<{ pid: number; cancelled: string[]; planMode: boolean }>;
    /** /mode: the human's, so 'human' is the only asker the REPL passes. */
    setMode(name: string, mode: PermissionMode, asker: 'human'): Promise<void>;
    /** The human's own words to a running teammate (a signed user_message); an unknown or stopped name is refused. */
    tell(name: string, text: string): Promise<{ id: string }>;
    /** Stop a running teammate's model call or tool (a signed interrupt); it then waits for the human. */
    interrupt(name: string): Promise<{ id: string }>;
  };
  /**
   * The session the lead journals into; a resumed one's earlier conversation opens the
   * transcript, after what the lead put right of an earlier lead's leftovers as it started.
   */
  readonly session?: Pick<LeadSessionStart, 'id' | 'resumed' | 'earlier' | 'problems' | 'recovered'>;
  readonly bus: { send(draft: Draft): Promise<Envelope> };
  prompt(text: string): void;
  /** /compact: the lead's conversation (no name, or 'lead') or a running teammate's. */
  compact(name: string | undefined): void;
  stop(reason?: string): Promise<void>;
  forceStop(): Promise<void>;
}
