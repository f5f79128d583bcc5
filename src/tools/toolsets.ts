import type * as z from 'zod';
import { errorMessage as message } from '../lib/index.js';
import type { ToolSpec } from '../model/index.js';
import { bashTool } from './bash.js';
import { broadcastTool } from './broadcast.js';
import { codeReviewRequestTool } from './code-review-request.js';
import { codeReviewResponseTool } from './code-review-response.js';
import { editFileTool } from './edit-file.js';
import { finishRequestTool } from './finish-request.js';
import type { ToolIO } from './io.js';
import { listTeammatesTool } from './list-teammates.js';
import { planApprovalRequestTool } from './plan-approval-request.js';
import { planApprovalResponseTool } from './plan-approval-response.js';
import { readFileTool } from './read-file.js';
import { sendMessageTool } from './send-message.js';
import { shutdownRequestTool } from './shutdown-request.js';
import { shutdownResponseTool } from './shutdown-response.js';
import { shutdownStatusTool } from './shutdown-status.js';
import { spawnTeammateTool } from './spawn-teammate.js';
import { parseToolInput, toolSpec, type Tool, type ToolResult } from './tool.js';
import { writeFileTool } from './write-file.js';
import { taskClaimTool } from './task-claim.js';
import { taskCreateTool } from './task-create.js';
import { taskListTool } from './task-list.js';
import { leadTaskUpdateTool, teammateTaskUpdateTool } from './task-update.js';
import type { LeadTeamIO, TeammateTeamIO } from './team-io.js';

export type { ToolIO } from './io.js';

/** A tool of a toolset: each uses some part of ToolIO, so all run with the whole of it, as the role has it. */
export type AnyTool<IO = ToolIO> = Tool<z.ZodType, IO>;
export type LeadToolIO = ToolIO<LeadTeamIO>;
export type TeammateToolIO = ToolIO<TeammateTeamIO>;

/** Tools every member has: they need only what every role's team offers. */
const WORK_TOOLS: AnyTool[] = [bashTool, readFileTool, writeFileTool, editFileTool];
// No read_inbox: messages reach the model as notices at tool-result boundaries and between
// turns, so an inbox tool would only ever answer "No new messages".
const TEAM_TOOLS: AnyTool[] = [sendMessageTool, broadcastTool, listTeammatesTool, codeReviewRequestTool, codeReviewResponseTool];

/**
 * The lead's tools. `plan_approval_response` is offered only when the lead model reviews plans;
 * otherwise a human decides them and the model has nothing to call.
 */
export function leadTools(options: { reviewPlans: boolean }): AnyTool<LeadToolIO>[] {
  return [
    ...WORK_TOOLS,
    ...TEAM_TOOLS,
    spawnTeammateTool,
    taskCreateTool,
    leadTaskUpdateTool,
    taskListTool,
    shutdownRequestTool,
    shutdownStatusTool,
    ...(options.reviewPlans ? [planApprovalResponseTool] : []),
  ];
}

/**
 * A teammate's tools. `plan_approval_request` is offered only while it is in plan mode (its
 * plan not yet approved): outside it there is no plan to submit, and offering the tool invites
 * the model to try.
 */
export function teammateTools(options: { planMode: boolean }): AnyTool<TeammateToolIO>[] {
  return [...WORK_TOOLS, ...TEAM_TOOLS, taskListTool, taskClaimTool, teammateTaskUpdateTool, shutdownResponseTool, ...(options.planMode ? [planApprovalRequestTool] : []), finishRequestTool];
}

export function toolSpecs<IO>(tools: readonly AnyTool<IO>[]): ToolSpec[] {
  return tools.map(toolSpec);
}

/**
 * Run one tool call of the model's. Nothing the model sends crashes the agent: an unknown
 * tool, invalid input or a thrown error all come back as an error result it can act on.
 */
export async function runTool<IO>(tools: readonly AnyTool<IO>[], name: string, rawInput: unknown, io: IO, signal?: AbortSignal): Promise<ToolResult> {
  const tool = tools.find((t) => t.name === name);
  if (tool === undefined) {
    return { content: `unknown tool '${name}'; available tools: ${tools.map((t) => t.name).join(', ')}`, isError: true };
  }
  const parsed = parseToolInput(tool, rawInput);
  if (!parsed.ok) return { content: parsed.error, isError: true };
  try {
    return await tool.run(parsed.input, io, signal);
  } catch (error) {
    return { content: `${name} failed: ${message(error)}`, isError: true };
  }
}
