import type { McpHub } from '../tools/index.js';
import type { AgentLoop } from '../agent/index.js';
import type { EventStream, Serial } from '../lib/index.js';
import type { ModelSettings, OpenModel } from '../model/index.js';
import type { KeyRing, PermissionMode } from '../protocol/index.js';
import type { Spawners } from '../process/index.js';
import type { RemoteHosts } from '../host/index.js';
import type { SandboxNetwork, SandboxStatus } from '../sandbox/index.js';
import type { TeamStore } from '../store/index.js';
import type { TeamBus, TeamPaths } from '../team/index.js';
import type { LeadDecisions } from './decisions.js';
import type { LeadEvent } from './events.js';
import type { LeadHooks } from './hooks.js';
import type { PlanReviewer } from './routing.js';
import type { LeadSessionStart, SessionChoice } from './session.js';
import type { LeadStepper } from './stepper.js';
import type { LeadControls } from './lead-controls.js';
import type { LeadTeammates } from './teammates.js';

export type LeadOptions = {
  /** Where everything the team shares is kept: opened by the caller, who closes it after the lead has stopped. */
  store: TeamStore;
  /** The descriptor `store` was opened by (empty: the file store under --home), for the teammates the lead starts to open theirs. */
  storeDescriptor?: string;
  /** This machine's own state of the team: the control socket and token, the workspace, what agents must not see. */
  paths: TeamPaths;
  settings: ModelSettings;
  cwd: string;
  /** --permission-mode, when given; absent: the settings' permissions.defaultMode, else default (start-mode.ts). */
  permissionMode?: PermissionMode;
  planReviewer: PlanReviewer;
  /** How long a teammate that agreed to stop has before its process group is ended. */
  graceMs?: number;
  /** Tokens the whole team may use (kept in the team config, where every agent checks it). */
  tokenBudget?: number;
  /** `off`: --no-sandbox, approvals advisory. Default: bubblewrap with the network on. */
  sandbox?: { kind: 'bwrap'; network: SandboxNetwork } | { kind: 'off' };
  /** The session to journal into: a new one unless an earlier one is resumed. */
  session?: SessionChoice;
};

/** What a started lead is made of: put together by `LeadRuntime.start`, in this order of need. */
export type LeadParts = {
  events: EventStream<LeadEvent>;
  options: LeadOptions;
  store: TeamStore;
  bus: TeamBus;
  loop: AgentLoop;
  model: OpenModel;
  teammates: LeadTeammates;
  decisions: LeadDecisions;
  /** Whatever starts its teammates: this machine's supervisor, and any host attached. */
  spawners: Spawners;
  keys: KeyRing;
  sandbox: SandboxStatus;
  rosterWrites: Serial;
  session: LeadSessionStart;
  hooks: LeadHooks;
  stepper: LeadStepper;
  hosts: RemoteHosts;
  controls: LeadControls;
  mcp: McpHub;
};
