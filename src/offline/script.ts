import { readFileSync } from 'node:fs';
import * as z from 'zod';
import { eachString, templateRefs, type JsonPath, type TemplateRef } from './template.js';
import { describeIssues } from '../lib/index.js';

/**
 * The offline model's script format. A script is data (a JSON file): an ordered list of
 * rules, each a `when` (conditions on the request) and a `reply` (text and/or tool calls,
 * or an injected HTTP error). The matcher in match.ts picks the first rule that fits.
 * Everything a rule can get wrong is caught here, at load time, with the field's path.
 */

/** Flags that keep `exec` stateless: `g` and `y` would make a rule depend on its last use. */
const FLAGS = /^[imsu]*$/;

const PatternInput = z.union([
  z.string().min(1, 'pattern is empty'),
  z.strictObject({
    pattern: z.string().min(1, 'pattern is empty'),
    flags: z.string().regex(FLAGS, 'flags may only use i, m, s and u').optional(),
  }),
]);

export type Pattern = { regex: RegExp; groups: ReadonlySet<string> };

/** The capture groups a pattern defines, numbered ("1", "2"…) and named. */
function groupsOf(regex: RegExp): Set<string> {
  // An alternative that matches the empty string makes exec report every group, unset.
  const probe = new RegExp(`${regex.source}|`, regex.flags).exec('');
  const groups = new Set<string>();
  for (let i = 1; i < (probe?.length ?? 0); i++) groups.add(String(i));
  for (const name of Object.keys(probe?.groups ?? {})) groups.add(name);
  return groups;
}

const Pattern = PatternInput.transform((input, ctx): Pattern => {
  const [source, flags] = typeof input === 'string' ? [input, ''] : [input.pattern, input.flags ?? ''];
  try {
    const regex = new RegExp(source, flags);
    return { regex, groups: groupsOf(regex) };
  } catch (error) {
    ctx.addIssue({ code: 'custom', message: `invalid regular expression: ${(error as Error).message}` });
    return z.NEVER;
  }
});

const When = z.strictObject({
  /** 'lead', 'teammate' (any teammate), or one teammate's name. */
  agent: z.string().min(1).optional(),
  role: z.string().min(1).optional(),
  system: Pattern.optional(),
  /** Searched in the last user message: its text and tool_result contents. */
  last: Pattern.optional(),
  /** Searched in the first user message, the same way: after a compaction, the summary of earlier work. */
  first: Pattern.optional(),
  /** The last user message answers a call to this tool (it holds that tool's tool_result). */
  after_tool: z.string().min(1).optional(),
  /** 1 for the agent's first reply: the number of assistant messages so far, plus one. */
  turn: z.number().int().positive().optional(),
});
export type When = z.infer<typeof When>;

const ToolUse = z.strictObject({
  name: z.string().min(1, 'tool name is empty'),
  input: z.record(z.string(), z.unknown()),
});

const InjectedError = z.strictObject({
  status: z.number().int().min(400).max(599),
  /** Defaults from the status: 429 rate_limit_error, 529 overloaded_error, 5xx api_error… */
  type: z.string().min(1).optional(),
  message: z.string().min(1).optional(),
  /** Sent as the retry-after-ms header, which the SDK honours: keeps retry tests fast. */
  retry_after_ms: z.number().int().positive().optional(),
  /** Answer 200 and send the error as an SSE `error` event after message_start (streaming only). */
  in_stream: z.boolean().optional(),
});
export type InjectedError = z.infer<typeof InjectedError>;

const Reply = z
  .strictObject({
    text: z.string().min(1, 'text is empty').optional(),
    tool_uses: z.array(ToolUse).min(1, 'tool_uses is empty').optional(),
    error: InjectedError.optional(),
    /** Stop streaming after this many content deltas and hold the connection open (interrupt tests). */
    stall_after_deltas: z.number().int().nonnegative().optional(),
  })
  .superRefine((reply, ctx) => {
    const content = reply.text !== undefined || reply.tool_uses !== undefined;
    if (reply.error && (content || reply.stall_after_deltas !== undefined)) {
      ctx.addIssue({ code: 'custom', message: 'an error reply cannot also have text, tool_uses or stall_after_deltas' });
    } else if (!reply.error && !content) {
      ctx.addIssue({ code: 'custom', message: 'a reply needs text, tool_uses or error' });
    }
  });

const AGENT_KEYS = ['name', 'role', 'team'];
const PLACEHOLDER_HELP =
  'use {{last}}, {{last.<group>}}, {{first}}, {{first.<group>}}, {{system}}, {{system.<group>}}, {{agent.name|role|team}} or {{turn}}';

function placeholderProblem(ref: TemplateRef, when: When): string | undefined {
  switch (ref.namespace) {
    case 'last':
    case 'first':
    case 'system': {
      if (ref.key === undefined) return undefined;
      const pattern = when[ref.namespace];
      if (!pattern) return `${ref.text} needs a when.${ref.namespace} pattern with a group '${ref.key}'`;
      return pattern.groups.has(ref.key) ? undefined : `${ref.text}: when.${ref.namespace} has no capture group '${ref.key}'`;
    }
    case 'turn':
      return ref.key === undefined ? undefined : `${ref.text}: {{${ref.namespace}}} takes no key`;
    case 'agent':
      return ref.key !== undefined && AGENT_KEYS.includes(ref.key) ? undefined : `${ref.text}: ${PLACEHOLDER_HELP}`;
    default:
      return `unknown placeholder ${ref.text}: ${PLACEHOLDER_HELP}`;
  }
}

const Rule = z
  .strictObject({
    /** For script readers; the server reports the matching rule's index in the x-offline-rule header. */
    name: z.string().optional(),
    when: When.default({}),
    /** Fire at most this many times per server (e.g. one injected 529, then normal replies). */
    times: z.number().int().positive().optional(),
    reply: Reply,
  })
  .superRefine((rule, ctx) => {
    const check = (text: string, path: JsonPath) => {
      for (const ref of templateRefs(text)) {
        const message = placeholderProblem(ref, rule.when);
        if (message) ctx.addIssue({ code: 'custom', path: ['reply', ...path], message });
      }
    };
    if (rule.reply.text !== undefined) check(rule.reply.text, ['text']);
    rule.reply.tool_uses?.forEach((use, index) => eachString(use.input, ['tool_uses', index, 'input'], check));
  });
export type Rule = z.infer<typeof Rule>;

export const Script = z.strictObject({
  version: z.literal(1),
  description: z.string().optional(),
  /**
   * The model's context window in (estimated) tokens: a longer request is refused as the API
   * refuses one, 400 "prompt is too long", before any rule is tried. Unset: no limit.
   */
  context_window: z.number().int().positive().optional(),
  rules: z.array(Rule),
});
export type Script = z.infer<typeof Script>;

export class ScriptError extends Error {
  override name = 'ScriptError';
}

/** Validate a parsed JSON value as a script; `source` names it in errors. */
export function parseScript(value: unknown, source = 'script'): Script {
  const parsed = Script.safeParse(value);
  if (!parsed.success) throw new ScriptError(`${source} is not a valid offline script: ${describeIssues(parsed.error, '(top level)')}`);
  return parsed.data;
}

export function loadScript(path: string): Script {
  let text: string;
  try {
    text = readFileSync(path, 'utf8');
  } catch (error) {
    throw new ScriptError(`cannot read offline script ${path}: ${(error as Error).message}`);
  }
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (error) {
    throw new ScriptError(`${path} is not valid JSON: ${(error as Error).message}`);
  }
  return parseScript(value, path);
}
