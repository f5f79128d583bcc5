import type { ToolResultBlockParam } from '@anthropic-ai/sdk/resources/messages';
import { errorMessage } from '../lib/index.js';
import { type ToolResult, capToolResult } from '../tools/index.js';
import type { AgentEvent } from './events.js';

export type ToolCall = { id: string; name: string; input: Record<string, unknown> };

/** Runs one tool call for the loop; policy and approvals live behind it, in the harness. */
export type ToolExecutor = (call: ToolCall, signal: AbortSignal) => Promise<ToolResult>;

/**
 * One step's tool calls, in order, as the tool_result blocks the next request carries. Every
 * tool_use gets its result, even when interrupted, or the next request is invalid.
 */
export async function runToolCalls(calls: readonly ToolCall[], signal: AbortSignal, execute: ToolExecutor, emit: (event: AgentEvent) => void): Promise<ToolResultBlockParam[]> {
  const results: ToolResultBlockParam[] = [];
  for (const call of calls) {
    if (signal.aborted) {
      results.push({ type: 'tool_result', tool_use_id: call.id, content: 'interrupted before it ran', is_error: true });
      continue;
    }
    emit({ type: 'tool_call', ...call });
    let result: ToolResult;
    try {
      result = await execute(call, signal);
    } catch (error) {
      result = { content: errorMessage(error), isError: true };
    }
    // Cut here, where every tool's result enters the conversation: one rule for all of them.
    const content = capToolResult(result.content);
    emit({ type: 'tool_result', id: call.id, name: call.name, content, isError: result.isError ?? false });
    results.push({ type: 'tool_result', tool_use_id: call.id, content, is_error: result.isError ?? false });
  }
  return results;
}
