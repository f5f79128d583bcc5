import type { MessageParam } from '@anthropic-ai/sdk/resources/messages';
import { ModelClient } from '../../src/model/client.js';
import { addUsage, ZERO_USAGE, type TokenUsage } from '../../src/model/usage.js';
import { protocolRules, renderPrompt } from '../../src/agent/prompts.js';
import { parseScript } from '../../src/offline/script.js';
import { startOfflineServer } from '../../src/offline/server.js';
import { teammateTools, toolSpecs } from '../../src/tools/toolsets.js';

/**
 * A scripted working session for the prompt-cache figures (bench and test alike): a
 * teammate, with its real system prompt and tools, asks for one file after another and
 * every tool result adds `resultChars` to the conversation. It runs through the real
 * ModelClient against the offline server, whose cache keeps to the API's rules.
 */

export type ToolSession = {
  calls: number;
  resultChars: number;
  /** ModelClient's conversation caching; off is the baseline (tools and system only). */
  cacheConversation: boolean;
  /** Requested from the offline server, which echoes it: a Claude id gets Claude's price. */
  model: string;
};

const script = parseScript({
  version: 1,
  rules: [{ reply: { text: 'Reading the next part.', tool_uses: [{ name: 'read_file', input: { path: 'notes/part-{{turn}}.md' } }] } }],
});

/** A file's text: different in every call, so no two results share a prefix. */
function partText(call: number, chars: number): string {
  const lines: string[] = [];
  for (let line = 1; lines.join('\n').length < chars; line++) lines.push(`part ${call}, line ${line}: the notes go on about step ${call * 1000 + line}.`);
  return lines.join('\n').slice(0, chars);
}

/** Each call's usage, in order. */
export async function runToolSession(session: ToolSession): Promise<TokenUsage[]> {
  const server = await startOfflineServer({ script });
  try {
    const client = new ModelClient({ model: session.model, apiKey: 'offline', baseURL: server.url, maxRetries: 0, cacheConversation: session.cacheConversation });
    const system = renderPrompt('teammate.md', {
      name: 'alice',
      role: 'researcher',
      team: 'default',
      cwd: '/work',
      protocol_rules: protocolRules(),
      mode: 'default',
      plan_mode_note: '',
    });
    const tools = toolSpecs(teammateTools({ planMode: true }));
    const messages: MessageParam[] = [{ role: 'user', content: 'Read every part of the notes, one after another, then summarise them.' }];
    const usages: TokenUsage[] = [];
    for (let call = 1; call <= session.calls; call++) {
      const turn = await client.turn({ system, tools, messages }, () => undefined);
      usages.push(turn.usage);
      messages.push({ role: 'assistant', content: turn.content });
      const use = turn.content.find((block) => block.type === 'tool_use');
      if (use === undefined) throw new Error(`call ${call} asked for no tool`);
      messages.push({ role: 'user', content: [{ type: 'tool_result', tool_use_id: use.id, content: partText(call, session.resultChars) }] });
    }
    return usages;
  } finally {
    await server.close();
  }
}

export type CacheFigures = TokenUsage & {
  /** Input tokens (full price, written and read) that were read from the cache. */
  readShare: number;
};

/** The session's totals over `usages`, with the share of its input read from the cache. */
export function cacheFigures(usages: readonly TokenUsage[]): CacheFigures {
  const sum = usages.reduce(addUsage, ZERO_USAGE);
  const input = sum.input_tokens + sum.cache_write_tokens + sum.cache_read_tokens;
  return { ...sum, readShare: input === 0 ? 0 : sum.cache_read_tokens / input };
}
