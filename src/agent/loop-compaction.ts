import type { ModelClient } from '../model/index.js';
import type { CompactReason } from '../store/index.js';
import { errorMessage } from '../lib/index.js';
import type { AgentEvent } from './events.js';
import type { Conversation } from './conversation.js';
import type { ContextMeter } from './context-meter.js';
import { buildReplacement, chooseCut, savesEnough, sizeOf, skippedCompaction, thresholdDue } from './compaction.js';
import { summarise, summariserPrompt } from './compactor.js';

/** The share of the window the most recent turns may keep through a compaction, in characters (4 a token). */
const KEEP_SHARE = 0.2;

/**
 * When and how an agent's loop compacts its conversation: asked by the human (/compact, with
 * what the summary should keep), past the meter's threshold, or after the API found a request
 * too long. The loop owns the turn; this owns the compaction's own state.
 */
export class LoopCompaction {
  /** /compact asked while a turn ran (with what the summary should keep): done before the next model call. */
  private requested: { instructions?: string } | undefined;
  /** The conversation's size when a compaction was last skipped for saving too little. */
  private skippedAtChars: number | undefined;

  constructor(
    private readonly deps: {
      model: Pick<ModelClient, 'turn' | 'model'>;
      meter: ContextMeter;
      conversation: Conversation;
      emit: (event: AgentEvent) => void;
      /** What the model must not forget, as text from the runtime: it survives every compaction whole. */
      protocolState: (() => string | Promise<string>) | undefined;
    },
  ) {}

  request(instructions?: string): void {
    this.requested = instructions === undefined ? {} : { instructions };
  }

  /** The compaction due before the next model call, if any: one asked for, or the threshold passed. */
  due(): CompactReason | undefined {
    if (this.requested) return 'manual';
    const chars = sizeOf(this.deps.conversation.messages);
    return thresholdDue(this.deps.meter.full(chars), chars, this.skippedAtChars) ? 'threshold' : undefined;
  }

  /**
   * Replace the older turns with a summary, through the conversation's one `replaced` record.
   * Whether it did: a failed compaction is reported and the turn goes on without it; only an
   * interrupt is thrown.
   */
  async run(reason: CompactReason, signal: AbortSignal): Promise<boolean> {
    const { conversation, meter, emit } = this.deps;
    const instructions = this.requested?.instructions;
    this.requested = undefined;
    try {
      await conversation.settled();
      const messages = conversation.messages;
      const cut = chooseCut(messages, meter.window * KEEP_SHARE * 4);
      if (cut === undefined) {
        if (reason === 'manual') emit({ type: 'error', message: 'nothing to compact: the conversation is only its latest turn' });
        return false;
      }
      const state = (await this.deps.protocolState?.()) ?? '';
      const summary = await summarise(this.deps.model, summariserPrompt(instructions), messages.slice(0, cut), signal);
      const beforeChars = sizeOf(messages);
      const replacement = buildReplacement(summary.text, state, messages.slice(cut));
      if (!savesEnough(beforeChars, sizeOf(replacement))) {
        this.skippedAtChars = beforeChars;
        emit({ type: 'compaction_skipped', message: skippedCompaction(beforeChars, sizeOf(replacement)), usage: summary.usage, model: summary.model });
        return false;
      }
      this.skippedAtChars = undefined;
      const before = meter.estimate(beforeChars);
      const after = meter.compacted(beforeChars, sizeOf(replacement));
      conversation.replace(replacement, { model: summary.model, usage: summary.usage });
      emit({ type: 'compacted', before, after, reason, usage: summary.usage, model: summary.model });
      return true;
    } catch (error) {
      if (signal.aborted) throw error;
      emit({ type: 'error', message: `compaction failed: ${errorMessage(error)}` });
      return false;
    }
  }
}
