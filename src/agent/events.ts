import type { TokenUsage } from '../model/index.js';
import type { CompactReason } from '../store/index.js';

/**
 * What an agent loop reports, for headless printing, the Ink UI and the harness alike.
 * A discriminated union: consumers switch on `type` and the compiler checks they cover it.
 */
export type AgentEvent =
  /** Text that entered the conversation as user input: the human's words or a notice. */
  | { type: 'input'; text: string }
  | { type: 'turn_start'; call: number }
  | { type: 'text_delta'; text: string }
  | { type: 'tool_call'; id: string; name: string; input: Record<string, unknown> }
  | { type: 'tool_result'; id: string; name: string; content: string; isError: boolean }
  /** One model call finished. */
  | { type: 'turn_end'; stopReason: string; usage: TokenUsage; text: string; model: string }
  /** The loop has nothing left to do until new input arrives. */
  | { type: 'idle'; reason: IdleReason; lastText: string }
  | { type: 'error'; message: string }
  /**
   * The older turns were replaced by a summary: context tokens `before` → `after` (estimated
   * until the next call measures it). `usage` is the summarising call's own, to be counted.
   */
  | { type: 'compacted'; before: number; after: number; reason: CompactReason; usage: TokenUsage; model: string }
  /** A summary was made but would not have saved enough: the conversation is as it was; the summarising call's `usage` still counts. */
  | { type: 'compaction_skipped'; message: string; usage: TokenUsage; model: string };

/** `waiting`: the turn ended after its tools, for a decision the agent asked for. */
export type IdleReason = 'end_turn' | 'waiting' | 'turn_cap' | 'budget' | 'interrupted' | 'error';
