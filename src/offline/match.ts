import { createHash } from 'node:crypto';
import type { RequestBlock, RequestMessage } from './request.js';
import type { InjectedError, Pattern, Rule, Script } from './script.js';
import { renderDeep, renderTemplate, type TemplateRef } from './template.js';

/**
 * The pure half of the offline model: given a script and a request, pick the reply.
 * Nothing here reads a clock, a file or a random number, so the same conversation always
 * gets the same reply; the only state (how often a `times`-limited rule has fired) is
 * passed in by the server.
 */

/** One request to the model as a script matches it: the system prompt, the messages so far and the tools offered. */
export type ModelRequest = { system: string; messages: readonly RequestMessage[]; tools: readonly string[] };

export type AgentIdentity = { kind: 'lead' | 'teammate'; name: string; role: string; team: string };

/** The opening every teammate's system prompt has; any other system prompt is the lead's. */
const TEAMMATE_PROMPT = /^You are '(?<name>[^']+)', role: (?<role>[^,]+), a member of team '(?<team>[^']*)'/;

export function parseAgent(system: string): AgentIdentity {
  const groups = TEAMMATE_PROMPT.exec(system.trimStart())?.groups;
  if (groups?.name && groups.role) {
    return { kind: 'teammate', name: groups.name, role: groups.role.trim(), team: groups.team ?? '' };
  }
  return { kind: 'lead', name: 'lead', role: 'lead', team: '' };
}

export type ScriptedToolUse = { id: string; name: string; input: Record<string, unknown> };
export type ScriptedReply = {
  kind: 'reply';
  text: string | undefined;
  toolUses: ScriptedToolUse[];
  stallAfterDeltas: number | undefined;
};
export type ScriptedError = {
  kind: 'error';
  status: number;
  type: string;
  message: string;
  retryAfterMs: number | undefined;
  inStream: boolean;
};
/** `rule` is the index of the rule that answered, undefined for the fallback. */
export type Match = { rule: number | undefined; reply: ScriptedReply | ScriptedError };

function blockText(block: RequestBlock): string | undefined {
  if (block.type === 'text') return block.text;
  if (block.type !== 'tool_result' || block.content === undefined) return undefined;
  if (typeof block.content === 'string') return block.content;
  return block.content.flatMap((part) => (part.text === undefined ? [] : [part.text])).join('\n');
}

function messageText(message: RequestMessage | undefined): string {
  if (message === undefined) return '';
  if (typeof message.content === 'string') return message.content.trim();
  return message.content.flatMap((block) => blockText(block) ?? []).join('\n').trim();
}

/** Names of the tools whose results the last user message carries. */
function answeredTools(messages: readonly RequestMessage[], lastUser: number): Set<string> {
  const names = new Map<string, string>();
  const previous = messages[lastUser - 1];
  if (previous?.role === 'assistant' && Array.isArray(previous.content)) {
    for (const block of previous.content) if (block.type === 'tool_use') names.set(block.id, block.name);
  }
  const answered = new Set<string>();
  const last = messages[lastUser];
  if (last && Array.isArray(last.content)) {
    for (const block of last.content) {
      const name = block.type === 'tool_result' ? names.get(block.tool_use_id) : undefined;
      if (name !== undefined) answered.add(name);
    }
  }
  return answered;
}

type Facts = {
  agent: AgentIdentity;
  turn: number;
  first: string;
  last: string;
  answered: Set<string>;
  system: string;
  tools: ReadonlySet<string>;
};

/**
 * A tool call's id: stable across runs, and unique within a conversation. The turn alone is
 * not: a compaction shortens the conversation, so the turn count starts low again while tool
 * calls from before it are still there. Its first message (after a compaction, the summary)
 * tells one stretch of a conversation from the next.
 */
export function offlineToolUseId(first: string, turn: number, index: number): string {
  const stretch = createHash('sha256').update(first).digest('hex').slice(0, 8);
  return `toolu_offline_${turn}_${index}_${stretch}`;
}

function factsOf(conversation: ModelRequest): Facts {
  const { messages } = conversation;
  const lastUser = messages.findLastIndex((m) => m.role === 'user');
  return {
    agent: parseAgent(conversation.system),
    turn: messages.filter((m) => m.role === 'assistant').length + 1,
    first: messageText(messages.find((m) => m.role === 'user')),
    last: messageText(messages[lastUser]),
    answered: answeredTools(messages, lastUser),
    system: conversation.system,
    tools: new Set(conversation.tools),
  };
}

type Captures = { last: RegExpExecArray | null; first: RegExpExecArray | null; system: RegExpExecArray | null };

function search(pattern: Pattern | undefined, text: string): RegExpExecArray | null | false {
  if (pattern === undefined) return null;
  return pattern.regex.exec(text) ?? false;
}

function agentMatches(selector: string, agent: AgentIdentity): boolean {
  if (selector === 'lead' || selector === 'teammate') return agent.kind === selector;
  return agent.kind === 'teammate' && agent.name === selector;
}

/** The captures a rule matched with, or undefined when it does not apply. */
function tryRule(rule: Rule, facts: Facts): Captures | undefined {
  const { when } = rule;
  if (when.agent !== undefined && !agentMatches(when.agent, facts.agent)) return undefined;
  if (when.role !== undefined && when.role !== facts.agent.role) return undefined;
  if (when.turn !== undefined && when.turn !== facts.turn) return undefined;
  if (when.after_tool !== undefined && !facts.answered.has(when.after_tool)) return undefined;
  // A real model can only call tools it was offered, so neither does the script.
  if (rule.reply.tool_uses?.some((use) => !facts.tools.has(use.name))) return undefined;
  const system = search(when.system, facts.system);
  const last = search(when.last, facts.last);
  const first = search(when.first, facts.first);
  if (system === false || last === false || first === false) return undefined;
  return { system, last, first };
}

function lookup(facts: Facts, captures: Captures): (ref: TemplateRef) => string {
  return (ref) => {
    switch (ref.namespace) {
      case 'last':
      case 'first':
      case 'system': {
        if (ref.key === undefined) return facts[ref.namespace];
        const match = captures[ref.namespace];
        const value = /^\d+$/.test(ref.key) ? match?.[Number(ref.key)] : match?.groups?.[ref.key];
        return value ?? '';
      }
      case 'turn':
        return String(facts.turn);
      case 'agent':
        return ref.key === 'name' || ref.key === 'role' || ref.key === 'team' ? facts.agent[ref.key] : ref.text;
      default:
        // Unreachable for a script that passed validation; left visible rather than guessed.
        return ref.text;
    }
  };
}

const ERROR_TYPES: Record<number, string> = {
  400: 'invalid_request_error',
  401: 'authentication_error',
  403: 'permission_error',
  404: 'not_found_error',
  413: 'request_too_large',
  429: 'rate_limit_error',
  529: 'overloaded_error',
};

function scriptedError(error: InjectedError): ScriptedError {
  const type = error.type ?? ERROR_TYPES[error.status] ?? (error.status >= 500 ? 'api_error' : 'invalid_request_error');
  return {
    kind: 'error',
    status: error.status,
    type,
    message: error.message ?? `Offline script injected ${error.status} ${type}.`,
    retryAfterMs: error.retry_after_ms,
    inStream: error.in_stream ?? false,
  };
}

function excerpt(text: string, max = 60): string {
  const line = text.replace(/\s+/g, ' ').trim();
  return line.length <= max ? line : `${line.slice(0, max - 1)}…`;
}

function fallback(facts: Facts): ScriptedReply {
  const text =
    `The offline script has no rule for this (agent ${facts.agent.name}, turn ${facts.turn}: "${excerpt(facts.last)}"). ` +
    `I am the scripted offline demo model; set ANTHROPIC_API_KEY to talk to Claude.`;
  return { kind: 'reply', text, toolUses: [], stallAfterDeltas: undefined };
}

/** First matching rule wins; `fired(i)` says how often rule i has answered already. */
export function matchScript(script: Script, conversation: ModelRequest, fired: (rule: number) => number): Match {
  const facts = factsOf(conversation);
  for (const [index, rule] of script.rules.entries()) {
    if (rule.times !== undefined && fired(index) >= rule.times) continue;
    const captures = tryRule(rule, facts);
    if (captures === undefined) continue;
    if (rule.reply.error) return { rule: index, reply: scriptedError(rule.reply.error) };
    const render = lookup(facts, captures);
    const toolUses = (rule.reply.tool_uses ?? []).map((use, i) => ({
      id: offlineToolUseId(facts.first, facts.turn, i + 1),
      name: use.name,
      input: renderDeep(use.input, render) as Record<string, unknown>,
    }));
    const text = rule.reply.text === undefined ? undefined : renderTemplate(rule.reply.text, render);
    return { rule: index, reply: { kind: 'reply', text, toolUses, stallAfterDeltas: rule.reply.stall_after_deltas } };
  }
  return { rule: undefined, reply: fallback(facts) };
}
