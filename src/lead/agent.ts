import { loadProjectRules } from './project-settings.js';
import { type PermissionRules, decideToolUse } from '../policy/index.js';
import { Refused, type Serial } from '../lib/index.js';
import { AgentLoop, type Conversation, findProjectInstructions, loadAgentDefinitions, planReviewNote, protocolRules, renderPrompt, withAgentDefinitions, withProjectInstructions } from '../agent/index.js';
import type { ModelClient } from '../model/index.js';
import { type PermissionMode, LEAD } from '../protocol/index.js';
import { realPathOfCall, leadTools, runTool, toolSpecs, realFileIO, realShellIO, type LeadTeamIO, type ToolResult, McpHub, describeMcpProblem, type McpServerStatus } from '../tools/index.js';
import type { ProjectMcpServers } from './mcp-settings.js';
import { launcherFor, type Launcher, probeSandbox, type SandboxLimits, bwrapProgram, sandboxFor, type SandboxNetwork, type SandboxStatus } from '../sandbox/index.js';
import { budgetProblem, hiddenFromAgents, type TeamPaths } from '../team/index.js';
import { setMemberStatus, type Member, type TeamStore } from '../store/index.js';
import type { LeadDecisions } from './decisions.js';
import type { PlanReviewer } from './routing.js';
import { leadProtocolState } from '../teammate/index.js';

/**
 * The lead's own agent: its tools, the policy every call of theirs goes through, its prompt
 * and its context window. The lead runtime (lead.ts) owns the process around it.
 */

/**
 * Whether this machine can sandbox commands, decided once at the lead's start; `limits`, the
 * project's (settings.json's `sandbox`), go with the settings to every teammate.
 */
export function sandboxStatus(wanted: { kind: 'bwrap'; network: SandboxNetwork } | { kind: 'off' } | undefined, limits?: SandboxLimits): SandboxStatus {
  const bounded = limits === undefined ? {} : { limits };
  if (wanted?.kind === 'off') return { kind: 'off', ...bounded };
  const network = wanted?.network ?? 'on';
  const bwrap = bwrapProgram();
  const probe = probeSandbox(bwrap, network);
  return probe.ok ? { kind: 'bwrap', network, bwrap, ...bounded } : { kind: 'unavailable', reason: probe.reason, ...bounded };
}

/**
 * The lead process's commands, its model's and the project's hooks: sandboxed like a
 * teammate's, or refused when they cannot be (in `mode`, which only bypass may run without).
 */
export function leadLauncher(status: SandboxStatus, mode: PermissionMode, paths: TeamPaths): Launcher {
  const chosen = sandboxFor(status, mode);
  if (!chosen.ok) {
    return () => {
      throw new Error(chosen.error);
    };
  }
  const hidden = hiddenFromAgents(paths);
  return launcherFor(chosen.settings, () => ({ writable: mode !== 'plan', hidden }));
}

function describeTeammates(members: readonly Member[]): string {
  const teammates = members.filter((m) => m.name !== LEAD);
  if (teammates.length === 0) return '(none yet)';
  return teammates.map((m) => `- ${m.name} (${m.role}): ${m.status}`).join('\n');
}

export type LeadAgentParts = {
  store: TeamStore;
  paths: TeamPaths;
  cwd: string;
  /** The lead's permission mode now: read at each call, since the human may change it between them (Shift+Tab). */
  mode: () => PermissionMode;
  planReviewer: PlanReviewer;
  sandbox: SandboxStatus;
  /** The model its turns call now (`/model` swaps it). */
  model: Pick<ModelClient, 'turn' | 'model'>;
  /** The context window in tokens (the model's, or --context-window). */
  contextWindow: number;
  team: LeadTeamIO;
  decisions: LeadDecisions;
  conversation: Conversation;
  /** The names of the teammates running now, for the protocol state a compaction keeps. */
  running: () => string[];
  /** The lead's roster writes, in order. */
  rosterWrites: Serial;
  /** The project's MCP servers, `.mcp.json` as read at the lead's start. */
  mcpServers: ProjectMcpServers;
};

/**
 * The lead's loop, and its own MCP servers: the project's (mcp-settings.ts), each started as its
 * commands are (in its sandbox, read-only and offline) and awaited first, since their tools are
 * part of its toolset, asked about like any other. A malformed `mcpServers` refuses the start.
 */
export async function createLeadLoop(parts: LeadAgentParts): Promise<{ loop: AgentLoop; mcp: McpHub }> {
  const { store, paths, cwd, mode, decisions, rosterWrites } = parts;
  // One launcher per mode met: plan's cannot write, whatever a call's grant says.
  const launchers = new Map<PermissionMode, Launcher>();
  const launcherNow = (): Launcher => {
    const now = mode();
    const launcher = launchers.get(now) ?? leadLauncher(parts.sandbox, now, paths);
    launchers.set(now, launcher);
    return launcher;
  };
  const launch: Launcher = (command, dir, grant) => launcherNow()(command, dir, grant);
  const { servers, about, failed } = parts.mcpServers.load();
  const mcp = await McpHub.started(servers, { launch, cwd, about, failed });
  const tools = [...leadTools({ reviewPlans: parts.planReviewer === 'lead' }), ...mcp.tools()];
  const shell = realShellIO({ launch });
  const io = { files: realFileIO(cwd, hiddenFromAgents(paths)), shell, team: parts.team, cwd };
  const execute = async (call: { id: string; name: string; input: Record<string, unknown> }, signal: AbortSignal): Promise<ToolResult> => {
    // Read at each call, so that `teams allow` reaches a running lead; a malformed file refuses the call.
    let rules: PermissionRules;
    try {
      rules = loadProjectRules(paths.home);
    } catch (error) {
      if (!(error instanceof Refused)) throw error;
      return { content: `Not allowed: the project's permission rules cannot be read: ${error.message}`, isError: true };
    }
    const decision = decideToolUse({ tool: call.name, input: call.input, mode: mode(), cwd, planApproved: true, alwaysAllowed: decisions.alwaysAllowed, rules, realPath: await realPathOfCall(cwd, call.input) });
    if (decision.action === 'deny') return { content: `Not allowed: ${decision.reason}`, isError: true };
    if (decision.action === 'ask') {
      void rosterWrites(() => setMemberStatus(store.roster, LEAD, 'awaiting_approval'));
      const answer = await decisions.askForLead(call.name, call.input, decision.reason, signal);
      void rosterWrites(() => setMemberStatus(store.roster, LEAD, 'working'));
      if (!answer.approve) return { content: `Permission denied${answer.feedback ? `: ${answer.feedback}` : ''}. Do not retry the same command; find another way or ask the human.`, isError: true };
    }
    return runTool(tools, call.name, call.input, { ...io, grant: decision.grant }, signal);
  };
  // The project's agent definitions, by name and description, so that its model can pick one; read once, like the rest of the prompt.
  const system = withProjectInstructions(withAgentDefinitions(renderPrompt('lead.md', {
    team: paths.team,
    cwd,
    mode: mode(),
    teammates: describeTeammates((await store.roster.load())?.members ?? []),
    protocol_rules: protocolRules(),
    plan_review_note: planReviewNote(parts.planReviewer),
  }), loadAgentDefinitions(paths.home).definitions), findProjectInstructions(cwd));
  const loop = new AgentLoop({
    system,
    tools: toolSpecs(tools),
    model: parts.model,
    execute,
    beforeModelCall: async () => budgetProblem(await store.roster.load()),
    conversation: parts.conversation,
    context: {
      window: parts.contextWindow,
      protocolState: async () => leadProtocolState(parts.running(), await store.requests.list({ state: 'pending' })),
    },
  });
  return { loop, mcp };
}

/**
 * Report, once the lead can (its effects wired), each of its servers that failed to start, and
 * from then on each that stops: shown and audited. The REPL lists failed ones as it opens too.
 */
export function reportLeadMcp(hub: McpHub, problem: (what: string, reason: string) => void): void {
  const report = (status: McpServerStatus) => {
    const { what, reason } = describeMcpProblem(status);
    problem(what, reason);
  };
  hub.statuses().filter((status) => status.state === 'failed').forEach(report);
  hub.changes.subscribe(report);
}
