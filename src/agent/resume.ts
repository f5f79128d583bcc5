import type { ToolResultBlockParam } from '@anthropic-ai/sdk/resources/messages';
import type { Conversation } from './conversation.js';

/**
 * A resumed conversation whose last message asked for tools that never answered (the process
 * ended while they ran) gets a result for each, saying so: every tool_use needs its
 * tool_result, or the next model call is invalid. Journaled like any other record.
 */
export function closeInterruptedTools(conversation: Conversation): void {
  const last = conversation.last;
  if (last?.role !== 'assistant' || typeof last.content === 'string') return;
  const results = last.content.flatMap((block): ToolResultBlockParam[] =>
    block.type === 'tool_use'
      ? [{ type: 'tool_result', tool_use_id: block.id, content: 'interrupted: the process ended before this tool finished; it may not have run', is_error: true }]
      : [],
  );
  if (results.length > 0) conversation.appendUser(results);
}
