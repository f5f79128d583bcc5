import { teammateTools, type AnyTool, type TeammateToolIO } from './toolsets.js';

/**
 * An agent definition's `tools` list (.teams/agents/<name>.md) narrows what a teammate of that
 * role may call, as a Claude Code subagent's does. It never widens anything: the permission
 * policy and the sandbox still decide every call the teammate makes with what it keeps.
 *
 * The tools by which a teammate takes part in the team are always kept, listed or not: without
 * them it could not report its work, close its task, submit a plan or answer a shutdown, and the
 * lead and the human would wait on it for nothing.
 */
const ALWAYS_KEPT = ['send_message', 'task_list', 'task_claim', 'task_update', 'shutdown_response', 'plan_approval_request', 'finish_request'] as const;

/**
 * Claude Code's names for the tools that have a counterpart here, so that a definition written
 * for Claude Code reads as meant. Its tools with no counterpart (Grep, Glob, WebFetch, …) are
 * unknown here: quietly mapping them onto another tool would grant more than the file says.
 */
const CLAUDE_CODE_NAMES: Readonly<Record<string, string>> = { Bash: 'bash', Read: 'read_file', Write: 'write_file', Edit: 'edit_file', MultiEdit: 'edit_file' };

/** Every tool a teammate has, by name: what a `tools` list may name. */
export function teammateToolNames(): string[] {
  return teammateTools({ planMode: true }).map((tool) => tool.name);
}

/** This project's name for a tool as a definition names it (Claude Code's name or ours); undefined when no teammate tool has it. */
export function teammateToolName(name: string): string | undefined {
  const ours = Object.hasOwn(CLAUDE_CODE_NAMES, name) ? CLAUDE_CODE_NAMES[name] : name;
  return ours !== undefined && teammateToolNames().includes(ours) ? ours : undefined;
}

/** The teammate's tools now (`planMode`: its plan tool too): all of them, or with `allowed` (our names) those it lists and the ones it always keeps. */
export function teammateToolsAllowed(allowed: readonly string[] | undefined, now: { planMode: boolean }): AnyTool<TeammateToolIO>[] {
  const tools = teammateTools(now);
  if (allowed === undefined) return tools;
  const kept = new Set<string>([...allowed, ...ALWAYS_KEPT]);
  return tools.filter((tool) => kept.has(tool.name));
}
