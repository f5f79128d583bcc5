import type { ContentBlockParam, MessageParam, TextBlockParam } from '@anthropic-ai/sdk/resources/messages';
import { asError } from '../lib/index.js';
import type { AssistantBlock, TokenUsage } from '../model/index.js';

/** What the model call behind a record used, and which model answered: what a session cost is summed from these. */
export type CallUsage = { model: string; usage: TokenUsage };

/**
 * One agent's conversation, changed only through three operations, each of which is also
 * told as a record. Replaying the records rebuilds the conversation exactly: that is what a
 * session journal stores, and a compaction is one more record (`replaced`), not a rewrite.
 */
export type ConversationRecord =
  /** Blocks the agent's side added: a new user message, or more blocks on the last one. */
  | { type: 'user'; content: ContentBlockParam[] }
  | { type: 'assistant'; content: AssistantBlock[]; spent?: CallUsage }
  /** The whole conversation from here on (a compaction's result; `spent`: the summary's call). */
  | { type: 'replaced'; messages: MessageParam[]; spent?: CallUsage };

/** Persists a record; the loop waits for every record before the model call that uses it. */
export type RecordSink = (record: ConversationRecord) => Promise<void>;

export class Conversation {
  private readonly list: MessageParam[] = [];
  private written: Promise<void> = Promise.resolve();
  private failure: unknown;
  private readonly sink: RecordSink | undefined;

  /**
   * `earlier`: the records of a resumed session, replayed without being journaled again;
   * `sink`: where new records go.
   */
  constructor(options: { sink?: RecordSink; earlier?: Iterable<ConversationRecord> } = {}) {
    this.sink = options.sink;
    for (const record of options.earlier ?? []) this.apply(record);
  }

  get messages(): readonly MessageParam[] {
    return this.list;
  }

  get last(): MessageParam | undefined {
    return this.list.at(-1);
  }

  appendUser(content: ContentBlockParam[]): void {
    this.record({ type: 'user', content });
  }

  appendAssistant(content: AssistantBlock[], spent?: CallUsage): void {
    this.record(spent === undefined ? { type: 'assistant', content } : { type: 'assistant', content, spent });
  }

  replace(messages: MessageParam[], spent?: CallUsage): void {
    this.record(spent === undefined ? { type: 'replaced', messages } : { type: 'replaced', messages, spent });
  }

  /**
   * Empty, unrecorded: for a fresh conversation whose sink now journals into a new session
   * (the lead's /clear), whose replay starts empty too. The old session keeps its records.
   */
  clear(): void {
    this.list.splice(0);
  }

  /** Another session's records in place of these, unrecorded (the lead's /resume): its journal has them already. */
  load(records: Iterable<ConversationRecord>): void {
    this.list.splice(0);
    for (const record of records) this.apply(record);
  }

  /** Resolves once every record so far is persisted; rejects with the first that was not. */
  async settled(): Promise<void> {
    await this.written;
    if (this.failure !== undefined) throw asError(this.failure);
  }

  private record(record: ConversationRecord): void {
    this.apply(record);
    const sink = this.sink;
    if (sink === undefined) return;
    // In order, one after another: a journal's lines must be the conversation's order.
    this.written = this.written.then(() => sink(record)).catch((error: unknown) => {
      this.failure ??= error;
    });
  }

  private apply(record: ConversationRecord): void {
    switch (record.type) {
      case 'user': {
        const last = this.list.at(-1);
        // After an interrupted model call the conversation ends with a user message: extend it.
        if (last?.role === 'user') last.content = [...asBlocks(last.content), ...record.content];
        else this.list.push({ role: 'user', content: [...record.content] });
        return;
      }
      case 'assistant':
        this.list.push({ role: 'assistant', content: record.content });
        return;
      case 'replaced':
        // Copies: extending the last user message later must not change the record a sink may not have written yet.
        this.list.splice(0, this.list.length, ...record.messages.map((message) => ({ ...message })));
        return;
    }
  }
}

function asBlocks(content: MessageParam['content']): ContentBlockParam[] {
  return typeof content === 'string' ? [{ type: 'text', text: content } satisfies TextBlockParam] : content;
}
