import type { OutgoingDraft, PermissionMode, RequestRecord } from '../protocol/index.js';
import type { ModeAsker } from '../policy/index.js';
import type { Member, TaskFilter, Task, TaskChange, TaskResult } from '../store/index.js';

/** The task board as a member's tools see it: every change is made as that member. */
export interface BoardIO {
  list(filter?: TaskFilter): Promise<Task[]>;
  update(id: string, change: TaskChange): Promise<TaskResult>;
}

/** The lead's board: it also creates tasks, assigned to a teammate or to whoever claims them. */
export interface LeadBoardIO extends BoardIO {
  create(draft: { subject: string; description: string; blocked_by: string[]; assign_to?: string }): Promise<Task>;
}

/** A teammate's board: it claims tasks, and changes only its own (the harness refuses others'). */
export interface TeammateBoardIO extends BoardIO {
  claim(id?: string): Promise<TaskResult>;
  /** Report one of its in-progress tasks completed: the lead records it, after the project's checks. The task as it still is. */
  complete(id: string, result: string): Promise<TaskResult>;
}

/**
 * What the team tools of every member need from the harness running them. The harness
 * implements it over the bus, the team's store and the supervisor; tests implement it in memory.
 * Methods throw an Error whose message is shown to the model when an action is refused.
 * Each role adds its own actions below, so no role carries members it cannot use.
 */
export interface TeamIO {
  /** The agent running the tools. */
  readonly self: string;
  sendMessage(to: string, content: string): Promise<{ id: string }>;
  /**
   * Send a protocol message as this agent: the tools of a kind (src/protocol/kinds/) send
   * through this, and the bus checks every rule the kind declares.
   */
  send(draft: OutgoingDraft): Promise<{ id: string }>;
  broadcast(content: string): Promise<{ id: string; recipients: string[] }>;
  listTeammates(): Promise<Member[]>;
  /** The state of a request, as the team's store knows it. */
  requestStatus(requestId: string): Promise<RequestRecord | undefined>;
  /** The team's task board. */
  readonly board: BoardIO;
}

/** A teammate to start; `model` is its own model id, the lead's when left out. */
/**
 * `permissionMode`: the mode asked for (else the lead's, plan becoming default); `asker` says
 * who asked, the human or the lead's model, which mode-grant.ts bounds by the lead's own.
 */
/** `host`: the host (`teams host --name`) it is placed on; undefined: the lead's machine. */
/** `agent`: an agent definition (.teams/agents/<agent>.md) giving its role, prompt, tools, model and mode; `role` may then be left out. */
export type SpawnSpec = { name: string; role?: string; agent?: string; prompt: string; planMode: boolean; model?: string; permissionMode?: PermissionMode; asker?: ModeAsker; isolation?: 'worktree'; host?: string };
/** The started process, and the model it runs (offline, always the offline model); the role and the mode it starts in, as settled (an agent definition may give them). */
export type Spawned = { pid: number; model: string; role?: string; mode?: PermissionMode };

/** The lead's team: it starts teammates, ends them, and may review their plans. */
export interface LeadTeamIO extends TeamIO {
  readonly board: LeadBoardIO;
  /** Start a teammate process. */
  spawnTeammate(spec: SpawnSpec): Promise<Spawned>;
  /** Start a teammate that crashed or was shut down again, with its conversation; the requests cancelled meanwhile are named. */
  respawnTeammate(name: string): Promise<{ pid: number; cancelled: string[]; planMode: boolean }>;
  /** Ask a teammate to shut down. */
  requestShutdown(teammate: string, reason: string | undefined): Promise<{ requestId: string }>;
  /** When the lead model reviews plans: decide a teammate's plan. */
  reviewPlan(requestId: string, approve: boolean, feedback: string | undefined): Promise<void>;
}

/** A teammate's team: it answers the lead's shutdown request, submits plans and asks to finish. */
export interface TeammateTeamIO extends TeamIO {
  readonly board: TeammateBoardIO;
  /** Answer the lead's shutdown request. Approving ends this process after the turn. */
  answerShutdown(requestId: string, approve: boolean, reason: string | undefined): Promise<void>;
  /** Submit a plan for approval; the decision arrives later as a message. */
  submitPlan(plan: string): Promise<{ requestId: string }>;
  /** Say the work is done and ask to be ended; the answer arrives as a message. */
  requestFinish(summary: string): Promise<{ requestId: string }>;
}
