import type { ContentBlockParam, ToolResultBlockParam } from '@anthropic-ai/sdk/resources/messages';
import { Conversation, type ConversationRecord } from '../../agent/index.js';
import { keyValues } from '../../protocol/index.js';
import { oneLine } from '../../lib/index.js';
import type { NewItem } from './types.js';

/** A notice of a protocol message, as the lead's model read it: `[type id from name] …`. */
const NOTICE = /^\[[a-z_]+(?: \S+)? from [a-z][a-z0-9_-]*\]/;

function resultText(content: ToolResultBlockParam['content']): string {
  if (content === undefined) return '';
  if (typeof content === 'string') return content;
  return content.map((block) => (block.type === 'text' ? block.text : `[${block.type}]`)).join(' ');
}

/**
 * A resumed session's earlier conversation as the transcript's lines, in the words the live
 * REPL uses: the human's prompts, the lead's text, each tool call with its result, and the
 * notices it read. Replayed through a Conversation, so a compacted session shows its
 * compacted form, which is what the lead's model sees.
 */
export function resumedItems(sessionId: string, records: readonly ConversationRecord[]): NewItem[] {
  const items: NewItem[] = [{ kind: 'info', text: `resumed session ${sessionId}; its conversation so far:` }];
  const calls = new Map<string, { name: string; input: string }>();
  for (const message of new Conversation({ earlier: records }).messages) {
    const blocks: ContentBlockParam[] = typeof message.content === 'string' ? [{ type: 'text', text: message.content }] : message.content;
    for (const block of blocks) {
      if (block.type === 'text' && block.text.trim() !== '') {
        if (message.role === 'assistant') items.push({ kind: 'lead', text: block.text.trim(), interrupted: false });
        else items.push(NOTICE.test(block.text) ? { kind: 'info', text: oneLine(block.text, 120) } : { kind: 'user', text: block.text });
      } else if (block.type === 'tool_use') {
        const input = typeof block.input === 'object' && block.input !== null ? keyValues(block.input as Record<string, unknown>) : '';
        calls.set(block.id, { name: block.name, input });
      } else if (block.type === 'tool_result') {
        const call = calls.get(block.tool_use_id);
        items.push({ kind: 'tool', name: call?.name ?? 'tool', input: call?.input ?? '', result: oneLine(resultText(block.content), 100), isError: block.is_error ?? false });
      }
    }
  }
  items.push({ kind: 'info', text: 'the session goes on from here' });
  return items;
}
