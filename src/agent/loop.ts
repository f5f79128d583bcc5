import type { MessageParam, TextBlockParam } from '@anthropic-ai/sdk/resources/messages';
import { DEFAULT_MAX_TOKENS, type ModelClient, type ToolSpec, DEFAULT_CONTEXT_WINDOW } from '../model/index.js';
import type { AgentEvent, IdleReason } from './events.js';
import { EventStream, errorMessage } from '../lib/index.js';
import { Conversation } from './conversation.js';
import { isContextOverflow, overflowLimit, sizeOf } from './compaction.js';
import { ContextMeter } from './context-meter.js';
import { LoopCompaction } from './loop-compaction.js';
import { runToolCalls, type ToolCall, type ToolExecutor } from './tool-calls.js';

export type LoopOptions = {
  system: string;
  /** The tools offered, or what offers them at each call (a teammate's plan tool only in plan mode). */
  tools: ToolSpec[] | (() => ToolSpec[]);
  model: Pick<ModelClient, 'turn' | 'model'>;
  execute: ToolExecutor;
  /** Model calls allowed between two idles: a runaway loop stops here. */
  maxModelCalls?: number;
  /** Asked before every model call: a reason not to make it (a spent budget), or undefined. */
  beforeModelCall?: () => Promise<string | undefined>;
  /**
   * Asked after each step's tools ran: true ends the turn there, to wait for a decision (a
   * submitted plan, a finish request). Input that arrives later starts the next turn.
   */
  waiting?: () => boolean;
  /** The conversation to go on with (a resumed session's) and where its records are journaled. */
  conversation?: Conversation;
  context?: ContextOptions;
};

export type ContextOptions = {
  /** The model's context window in tokens (contextWindowOf). */
  window: number;
  /** The fraction of the window past which the loop compacts before its next call. */
  threshold?: number;
  /** What the model must not forget, as text from the runtime: it survives every compaction whole. */
  protocolState?: () => string | Promise<string>;
};

export const DEFAULT_MAX_MODEL_CALLS = 50;
export const DEFAULT_COMPACT_THRESHOLD = 0.8;
/** The least room a reply gets, however full the window: below it a reply is cut off mid-thought. */
const MIN_REPLY_TOKENS = 1_024;

/**
 * One agent's model loop. Input (the human's words, notices of protocol messages) is queued
 * with `push`; the loop wakes, calls the model, runs the tools it asks for, and goes idle
 * when the model ends its turn. Input that arrives while tools run joins the conversation at
 * the next tool-result boundary, not only when the turn ends.
 */
export class AgentLoop {
  readonly events = new EventStream<AgentEvent>();
  readonly conversation: Conversation;
  private queue: string[] = [];
  private running: Promise<void> | undefined;
  private abort: AbortController | undefined;
  private lastText = '';
  private readonly meter: ContextMeter;
  private readonly compaction: LoopCompaction;
  /** The turn running now (not an idle compaction), and the user's halt of it, if any: what `halt` acts on. */
  private turn: { halt?: { note: string; held: string[] } } | undefined;

  constructor(private readonly options: LoopOptions) {
    this.conversation = options.conversation ?? new Conversation();
    const fixedChars = options.system.length + JSON.stringify(typeof options.tools === 'function' ? options.tools() : options.tools).length;
    this.meter = new ContextMeter(options.context?.window ?? DEFAULT_CONTEXT_WINDOW, options.context?.threshold ?? DEFAULT_COMPACT_THRESHOLD, fixedChars);
    this.compaction = new LoopCompaction({ model: options.model, meter: this.meter, conversation: this.conversation, emit: (event) => this.events.emit(event), protocolState: options.context?.protocolState });
  }

  subscribe(listener: (event: AgentEvent) => void): () => void {
    return this.events.subscribe(listener);
  }

  get busy(): boolean {
    return this.running !== undefined;
  }

  /** The conversation so far (read-only view). */
  get messages(): readonly MessageParam[] {
    return this.conversation.messages;
  }

  /**
   * Queue news for the model's next turn without starting one: something it should know when
   * it next runs (what changed while no lead ran), but no reason to spend a model call now.
   */
  enqueue(text: string): void {
    this.queue.push(text);
  }

  /** Queue input; starts a run when the loop is idle. */
  push(text: string): void {
    this.queue.push(text);
    this.events.emit({ type: 'input', text });
    this.kick();
  }

  private kick(): void {
    this.running ??= this.run().finally(() => {
      this.running = undefined;
      // Input that arrived as the run was finishing starts the next one.
      if (this.queue.length > 0) this.kick();
    });
  }

  /** Resolves once the loop is idle. */
  async idle(): Promise<void> {
    while (this.running) await this.running;
  }

  /** Compact now if idle, else before the next model call (the human's /compact [instructions]). */
  compact(instructions?: string): void {
    this.compaction.request(instructions);
    if (this.running !== undefined) return;
    this.running = this.compactWhileIdle().finally(() => {
      this.running = undefined;
      if (this.queue.length > 0) this.kick();
    });
  }

  /** No turn starts and no idle is reported: nothing happened that a teammate's lead must hear of. */
  private async compactWhileIdle(): Promise<void> {
    const abort = new AbortController();
    this.abort = abort;
    try {
      await this.compaction.run('manual', abort.signal);
    } catch {
      // Only an interrupt gets here (a compaction reports its own failures); the conversation is as it was.
    } finally {
      this.abort = undefined;
    }
  }

  /** The window of the model the next calls go to (the lead's /model), which the threshold and the reply's room are measured against. */
  useContextWindow(tokens: number): void {
    this.meter.useWindow(tokens);
  }

  /** Stop the model call or tool under way; queued input stays queued. */
  interrupt(): void {
    this.abort?.abort();
  }

  /**
   * The user's interrupt: stop the model call or tool under way and start nothing more. Once
   * the turn has ended, `note` joins the conversation after what the turn left (and after any
   * input queued meanwhile, which waits too), so the model's next request says it was
   * interrupted; only new input starts that request. With no turn running it does nothing.
   */
  halt(note: string): void {
    const turn = this.turn;
    if (turn === undefined) return;
    turn.halt = { note, held: [...(turn.halt?.held ?? []), ...this.queue] };
    this.queue = [];
    this.abort?.abort();
  }

  private drainQueueAsBlocks(): TextBlockParam[] {
    const texts = this.queue;
    this.queue = [];
    return texts.map((text) => ({ type: 'text', text }));
  }

  private async run(): Promise<void> {
    const abort = new AbortController();
    this.abort = abort;
    const turn: NonNullable<AgentLoop['turn']> = {};
    this.turn = turn;
    const max = this.options.maxModelCalls ?? DEFAULT_MAX_MODEL_CALLS;
    let reason: IdleReason = 'end_turn';
    try {
      let calls = 0;
      while (this.queue.length > 0 || this.conversation.last?.role === 'user') {
        const pending = this.drainQueueAsBlocks();
        if (pending.length > 0) this.conversation.appendUser(pending);
        if (calls >= max) {
          reason = 'turn_cap';
          this.events.emit({ type: 'error', message: `turn cap reached: ${max} model calls without going idle` });
          break;
        }
        const refusal = await this.options.beforeModelCall?.();
        if (refusal) {
          reason = 'budget';
          this.events.emit({ type: 'error', message: refusal });
          break;
        }
        calls++;
        const due = this.compaction.due();
        if (due !== undefined) await this.compaction.run(due, abort.signal);
        const toolCalls = await this.callModel(calls, abort.signal);
        if (toolCalls.length === 0) continue;
        const results = await runToolCalls(toolCalls, abort.signal, this.options.execute, (event) => this.events.emit(event));
        if (abort.signal.aborted) {
          this.conversation.appendUser(results);
          reason = 'interrupted';
          break;
        }
        // New messages join at the tool-result boundary, after the results they follow.
        const news = this.drainQueueAsBlocks();
        this.conversation.appendUser([...results, ...news]);
        // A model told to wait may not: the loop waits for it, so no call is made until news comes.
        if (news.length === 0 && this.options.waiting?.() === true) {
          reason = 'waiting';
          break;
        }
      }
    } catch (error) {
      // Only our own signal aborts a turn: the model client's abort error is that, seen from inside.
      if (abort.signal.aborted) {
        reason = 'interrupted';
      } else {
        reason = 'error';
        this.events.emit({ type: 'error', message: errorMessage(error) });
      }
    } finally {
      this.abort = undefined;
      this.turn = undefined;
    }
    if (turn.halt) {
      const { held, note } = turn.halt;
      this.conversation.appendUser([...held, note].map((text) => ({ type: 'text', text })));
      this.events.emit({ type: 'input', text: note });
    }
    this.events.emit({ type: 'idle', reason, lastText: this.lastText });
  }

  /** A model call; one the API finds too long for the window is compacted away and tried once more. */
  private async callModel(call: number, signal: AbortSignal): Promise<ToolCall[]> {
    try {
      return await this.modelCall(call, signal);
    } catch (error) {
      if (signal.aborted || !isContextOverflow(error)) throw error;
      const limit = overflowLimit(error);
      if (limit !== undefined) this.meter.learnWindow(limit);
      if (!(await this.compaction.run('overflow', signal))) throw error;
      return this.modelCall(call, signal);
    }
  }

  /** One model call; returns the tool calls it asked for (none when it ended its turn). */
  private async modelCall(call: number, signal: AbortSignal): Promise<ToolCall[]> {
    // Journaled before the call that uses it: a crash mid-call loses nothing the model saw.
    await this.conversation.settled();
    this.events.emit({ type: 'turn_start', call });
    // The reply counts against the window too: the API refuses prompt + max_tokens beyond it.
    const room = this.meter.window - this.meter.estimate(sizeOf(this.conversation.messages));
    const maxTokens = Math.min(DEFAULT_MAX_TOKENS, Math.max(MIN_REPLY_TOKENS, room));
    const turn = await this.options.model.turn(
      { system: this.options.system, tools: typeof this.options.tools === 'function' ? this.options.tools() : this.options.tools, messages: this.conversation.messages, maxTokens, signal },
      (event) => {
        if (event.type === 'text_delta') this.events.emit({ type: 'text_delta', text: event.text });
      },
    );
    this.conversation.appendAssistant(turn.content, { model: turn.model, usage: turn.usage });
    this.meter.measure(turn.usage, sizeOf(this.conversation.messages));
    const text = turn.content.flatMap((block) => (block.type === 'text' ? [block.text] : [])).join('');
    if (text.trim() !== '') this.lastText = text;
    this.events.emit({ type: 'turn_end', stopReason: turn.stop_reason, usage: turn.usage, text, model: turn.model });
    return turn.content.flatMap((block) => (block.type === 'tool_use' ? [{ id: block.id, name: block.name, input: block.input }] : []));
  }
}
