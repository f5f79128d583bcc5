import type { MessageParam } from '@anthropic-ai/sdk/resources/messages';
import { type ModelClient, addUsage, ZERO_USAGE, type TokenUsage } from '../model/index.js';
import { isContextOverflow, summaryRequest } from './compaction.js';
import { renderPrompt } from './prompts.js';

/** The summariser's reply is a summary, not work: kept short whatever the agent's own limit. */
const SUMMARY_MAX_TOKENS = 8_192;
/** Halvings of what is summarised before giving up on a summary: the last leaves one message. */
const MAX_ATTEMPTS = 6;

export type Summary = { text: string; usage: TokenUsage; model: string };

/** The summariser's system prompt, steered by the human's `/compact <instructions>` if given (as in Claude Code). */
export function summariserPrompt(instructions: string | undefined): string {
  const base = renderPrompt('compact.md', {});
  const wanted = instructions?.trim();
  return wanted ? `${base}\n\nThe human asked this summary to: ${wanted}` : base;
}

/**
 * The dedicated model call that summarises the older turns: its own system prompt, no tools.
 * Should the summarising request itself be too long, it cuts harder, dropping the oldest half
 * of what it summarises each time, rather than loop: at worst the summary says that the
 * earliest work was lost.
 */
export async function summarise(
  model: Pick<ModelClient, 'turn' | 'model'>,
  system: string,
  older: readonly MessageParam[],
  signal: AbortSignal,
): Promise<Summary> {
  let usage = ZERO_USAGE;
  let dropped = 0;
  for (let attempt = 0; attempt < MAX_ATTEMPTS && dropped < older.length; attempt++) {
    const kept = older.slice(dropped);
    try {
      const turn = await model.turn(
        { system, tools: [], messages: [{ role: 'user', content: summaryRequest(kept, dropped) }], maxTokens: SUMMARY_MAX_TOKENS, signal, cacheConversation: false },
        () => undefined,
      );
      usage = addUsage(usage, turn.usage);
      const text = turn.content.flatMap((block) => (block.type === 'text' ? [block.text] : [])).join('').trim();
      if (text === '') throw new Error('the summary of earlier work came back empty');
      const note = dropped > 0 ? `\n\n(The oldest ${dropped} of ${older.length} messages did not fit the summariser and are lost.)` : '';
      return { text: text + note, usage, model: turn.model };
    } catch (error) {
      if (!isContextOverflow(error)) throw error;
      dropped += Math.max(1, Math.ceil(kept.length / 2));
    }
  }
  return { text: `(Earlier work could not be summarised: ${older.length} messages did not fit the context window.)`, usage, model: model.model };
}
