import * as z from 'zod';
import { describeIssues } from '../lib/index.js';
import { AgentName, PermissionMode } from '../protocol/index.js';
import { ModelId } from '../model/index.js';
import { teammateToolName, teammateToolNames } from '../tools/index.js';

/**
 * An agent definition: a role the lead can spawn a teammate as, written the way Claude Code
 * writes a subagent (`.claude/agents/<name>.md`), here `.teams/agents/<name>.md`. Front matter
 * between `---` lines, then the role's prompt:
 *
 *     ---
 *     name: reviewer
 *     description: Reviews a change for bugs; use after any edit worth a second look
 *     tools: Read, Bash            (or a YAML list; optional, default: every tool)
 *     model: claude-haiku-4-5      (optional; `inherit` or absent: as the lead decides)
 *     permission_mode: plan        (optional; Claude Code's `permissionMode` is read too)
 *     isolation: worktree          (optional: its own git worktree)
 *     ---
 *     You review code. …
 */
export type AgentDefinition = {
  name: string;
  description: string;
  /** Our tool names; undefined: every tool. */
  tools?: string[];
  model?: string;
  permissionMode?: PermissionMode;
  isolation?: 'none' | 'worktree';
  /** The body: the role's prompt, put into the teammate's system prompt. */
  prompt: string;
  /** The file it was read from. */
  file: string;
};

/** Claude Code's spelling of the modes, for a definition written for it. */
const CLAUDE_CODE_MODES: Readonly<Record<string, PermissionMode>> = { acceptEdits: 'accept-edits', bypassPermissions: 'bypass' };
/** Keys Claude Code writes that mean nothing here (the colour of its UI): read and passed over. */
const IGNORED_KEYS = new Set(['color']);

const ToolList = z.array(z.string()).transform((names, ctx) => {
  const ours: string[] = [];
  for (const name of names) {
    const tool = teammateToolName(name);
    if (tool === undefined) ctx.addIssue({ code: 'custom', message: `unknown tool '${name}' (known: ${teammateToolNames().join(', ')}; or Claude Code's Bash, Read, Write, Edit, MultiEdit)` });
    else if (!ours.includes(tool)) ours.push(tool);
  }
  return ours;
});

const FrontMatter = z.strictObject({
  name: AgentName,
  description: z.string().trim().min(1, 'is empty'),
  tools: ToolList.optional(),
  model: z.union([z.literal('inherit'), ModelId]).optional(),
  permission_mode: z.preprocess((mode) => (typeof mode === 'string' && Object.hasOwn(CLAUDE_CODE_MODES, mode) ? CLAUDE_CODE_MODES[mode] : mode), PermissionMode).optional(),
  isolation: z.enum(['none', 'worktree']).optional(),
});

/** A definition's text (the file's whole contents), checked; `file` names it in every error. */
export function parseAgentDefinition(text: string, file: string, expectedName: string): { ok: true; definition: AgentDefinition } | { ok: false; error: string } {
  const fail = (error: string) => ({ ok: false as const, error: `${file}: ${error}` });
  const split = splitFrontMatter(text);
  if (!split.ok) return fail(split.error);
  const fields = readFields(split.front);
  if (!fields.ok) return fail(fields.error);
  const parsed = FrontMatter.safeParse(fields.values);
  if (!parsed.success) return fail(describeIssues(parsed.error, 'front matter'));
  const { name, description, tools, model, permission_mode: permissionMode, isolation } = parsed.data;
  // The file is found by the name: two files claiming one name would make which one runs a matter of luck.
  if (name !== expectedName) return fail(`name: '${name}' is not the file's name ('${expectedName}.md'): name the file after the agent`);
  const prompt = split.body.trim();
  if (prompt === '') return fail('the body after the front matter (the role\'s prompt) is empty');
  return {
    ok: true,
    definition: {
      name,
      description,
      ...(tools === undefined ? {} : { tools }),
      ...(model === undefined || model === 'inherit' ? {} : { model }),
      ...(permissionMode === undefined ? {} : { permissionMode }),
      ...(isolation === undefined ? {} : { isolation }),
      prompt,
      file,
    },
  };
}

function splitFrontMatter(text: string): { ok: true; front: string[]; body: string } | { ok: false; error: string } {
  const lines = text.replace(/^\uFEFF/, '').split(/\r?\n/);
  if (lines[0]?.trim() !== '---') return { ok: false, error: "no front matter: the file must start with a '---' line, then name: and description:, then '---'" };
  const end = lines.indexOf('---', 1);
  if (end === -1) return { ok: false, error: "the front matter has no closing '---' line" };
  return { ok: true, front: lines.slice(1, end), body: lines.slice(end + 1).join('\n') };
}

/**
 * The front matter's `key: value` lines, as much YAML as a subagent file uses: plain or quoted
 * scalars, a list as `a, b`, `[a, b]` or `- a` lines under the key, and `#` comments. Anything
 * else is an error naming the line, never a guess.
 */
function readFields(lines: readonly string[]): { ok: true; values: Record<string, unknown> } | { ok: false; error: string } {
  const values: Record<string, unknown> = {};
  let listKey: string | undefined;
  for (const [index, raw] of lines.entries()) {
    const line = raw.trimEnd();
    if (line.trim() === '' || line.trim().startsWith('#')) continue;
    const item = /^\s+-\s+(?<value>.*)$/.exec(line);
    if (item?.groups?.value !== undefined && listKey !== undefined) {
      (values[listKey] as string[]).push(unquote(item.groups.value));
      continue;
    }
    const field = /^(?<key>[A-Za-z_][A-Za-z0-9_-]*):(?:\s+(?<value>.*))?$/.exec(line);
    const key = field?.groups?.key;
    if (key === undefined) return { ok: false, error: `front matter line ${index + 2}: expected 'key: value', got '${line.trim().slice(0, 60)}'` };
    const name = key === 'permissionMode' ? 'permission_mode' : key;
    if (Object.hasOwn(values, name)) return { ok: false, error: `${name}: given twice` };
    listKey = undefined;
    if (IGNORED_KEYS.has(key)) continue;
    const value = (field?.groups?.value ?? '').trim();
    if (value === '' && name === 'tools') {
      values[name] = [];
      listKey = name;
    } else if (name === 'tools') values[name] = listOf(value);
    else if (value === '|' || value === '>') return { ok: false, error: `${name}: block scalars ('${value}') are not read here: write the value on one line` };
    else values[name] = unquote(value);
  }
  return { ok: true, values };
}

/** `a, b`, `[a, b]` or `"a", 'b'`. */
function listOf(value: string): string[] {
  const inner = value.startsWith('[') && value.endsWith(']') ? value.slice(1, -1) : value;
  return inner.split(',').map((part) => unquote(part.trim())).filter((part) => part !== '');
}

function unquote(value: string): string {
  const text = value.trim();
  if (text.length >= 2 && ((text.startsWith('"') && text.endsWith('"')) || (text.startsWith("'") && text.endsWith("'")))) return text.slice(1, -1);
  return text;
}
