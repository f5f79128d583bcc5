import { mkdirSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import * as z from 'zod';
import { writeFileAtomic, withFileLock, Refused, describeIssues } from '../lib/index.js';
import { NetworkRuleText, RuleText, showRule, type PermissionRule, type PermissionRules } from '../policy/index.js';
import { HooksSection, type HooksConfig } from '../hooks/index.js';
import { DEFAULT_LIMITS, SandboxLimits } from '../sandbox/index.js';

/**
 * The project's settings, `<home>/settings.json`: its permission rules, as Claude Code
 * writes them (`{"permissions": {"allow": [...], "deny": [...]}}`), with the bash rules whose
 * commands may reach the network (`"network": ["Bash(npm install:*)"]`), and its hooks
 * (hook-settings.ts). It lives under the state
 * root, which every agent's tools and sandbox are kept out of: a teammate cannot write it.
 * Shared by every team under that root. A malformed file is an error naming the file and
 * the field; it never reads as "no rules".
 */
const RuleList = z.array(RuleText).default([]);
const SettingsFile = z.looseObject({
  permissions: z
    .looseObject({ allow: RuleList, deny: RuleList, network: z.array(NetworkRuleText).default([]) })
    .default({ allow: [], deny: [], network: [] }),
});
/** Read apart from the rules: a mistake in a hook must not cost the project its deny rules, nor the reverse. */
const HooksFile = z.looseObject({ hooks: HooksSection });
/** Read apart as well: `{"sandbox": {"memory_mb": 4096, "processes": 512, "tmp_mb": 1024, "env": ["NODE_OPTIONS"]}}` (limits.ts). */
const SandboxFile = z.looseObject({ sandbox: SandboxLimits.default(DEFAULT_LIMITS) });

export type RuleKind = 'allow' | 'deny' | 'network';
const KINDS = ['allow', 'deny', 'network'] as const satisfies RuleKind[];

export function settingsPath(home: string): string {
  return join(home, 'settings.json');
}

/** The file's rules; none when there is no file. Throws, naming the file and field, when it is malformed. */
export function loadProjectRules(home: string): PermissionRules {
  return readSettings(settingsPath(home)).rules;
}

/** The file's hooks by event; none when there is no file. Throws, naming the file and field (`hooks.task_completed.0.command`), when they are malformed. */
export function loadProjectHooks(home: string): HooksConfig {
  const path = settingsPath(home);
  const parsed = HooksFile.safeParse(readJson(path));
  if (!parsed.success) throw new Refused(`${path}: ${describeIssues(parsed.error, 'settings')}`);
  return parsed.data.hooks;
}

/** The file's bounds on every command and the variables it passes them; the defaults when there is no file. Throws, naming the file and field, when malformed. */
export function loadProjectSandbox(home: string): SandboxLimits {
  const path = settingsPath(home);
  const parsed = SandboxFile.safeParse(readJson(path));
  if (!parsed.success) throw new Refused(`${path}: ${describeIssues(parsed.error, 'settings')}`);
  return parsed.data.sandbox;
}

/** The file as JSON; `{}` when there is none. */
export function readJson(path: string): unknown {
  let text: string;
  try {
    text = readFileSync(path, 'utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return {};
    throw new Refused(`${path}: cannot be read (${(error as Error).message})`);
  }
  try {
    return JSON.parse(text);
  } catch (error) {
    throw new Refused(`${path}: not JSON (${(error as Error).message})`);
  }
}

function readSettings(path: string): { rules: PermissionRules; raw: Record<string, unknown> } {
  const json = readJson(path);
  const parsed = SettingsFile.safeParse(json);
  if (!parsed.success) throw new Refused(`${path}: ${describeIssues(parsed.error, 'settings')}`);
  const { allow, deny, network } = parsed.data.permissions;
  return { rules: { allow, deny, network }, raw: json as Record<string, unknown> };
}

/** What the file held under `key`, so that fields this version does not know are kept on a write. */
function rawObject(json: Record<string, unknown>, key: string): Record<string, unknown> {
  const value = json[key];
  return typeof value === 'object' && value !== null ? (value as Record<string, unknown>) : {};
}

export type RuleChange = { changed: boolean; rules: PermissionRules };

/**
 * Add a rule to each of `kinds` (`allow` and `network` for `teams allow --network`) in one
 * write, a no-op for a list that holds it already, under the file's lock: several `teams allow`
 * may run at once. A network rule must be a bash rule: anything else is refused, nothing written.
 */
export function addProjectRule(home: string, kinds: RuleKind | readonly RuleKind[], rule: PermissionRule): RuleChange {
  const lists = typeof kinds === 'string' ? [kinds] : kinds;
  if (lists.includes('network') && rule.tool !== 'bash') throw new Refused(`${showRule(rule)} cannot be a network rule: a network rule names bash commands, e.g. Bash(npm install:*)`);
  return updateRules(home, (rules) => {
    const missing = lists.filter((kind) => !rules[kind].some((r) => showRule(r) === showRule(rule)));
    if (missing.length === 0) return undefined;
    return { ...rules, ...Object.fromEntries(missing.map((kind) => [kind, [...rules[kind], rule]])) };
  });
}

/** Remove a rule from `kind`'s list, or from every list that holds it; `changed` is false when none did. */
export function removeProjectRule(home: string, rule: PermissionRule, kind?: RuleKind): RuleChange {
  const text = showRule(rule);
  const lists = kind === undefined ? KINDS : [kind];
  return updateRules(home, (rules) => {
    if (!lists.some((k) => rules[k].some((r) => showRule(r) === text))) return undefined;
    return { ...rules, ...Object.fromEntries(lists.map((k) => [k, rules[k].filter((r) => showRule(r) !== text)])) };
  });
}

function updateRules(home: string, change: (rules: PermissionRules) => PermissionRules | undefined): RuleChange {
  const path = settingsPath(home);
  mkdirSync(dirname(path), { recursive: true });
  return withFileLock(`${path}.lock`, () => {
    const { rules, raw } = readSettings(path);
    const next = change(rules);
    if (!next) return { changed: false, rules };
    // A network list is written only when it has rules or the file had one: a file stays as Claude Code writes it.
    const before = rawObject(raw, 'permissions');
    const network = next.network.length > 0 || 'network' in before ? { network: next.network.map(showRule) } : {};
    const permissions = { ...before, allow: next.allow.map(showRule), deny: next.deny.map(showRule), ...network };
    writeFileAtomic(path, `${JSON.stringify({ ...raw, permissions }, null, 2)}\n`);
    return { changed: true, rules: next };
  });
}
