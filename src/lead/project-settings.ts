import { mkdirSync } from 'node:fs';
import { dirname } from 'node:path';
import * as z from 'zod';
import { writeFileAtomic, withFileLock, Refused, describeIssues } from '../lib/index.js';
import { NetworkRuleText, RuleText, showRule, type PermissionRule, type PermissionRules } from '../policy/index.js';
import { HOOK_EVENTS, HooksSection, type HooksConfig } from '../hooks/index.js';
import { DEFAULT_LIMITS, SandboxLimits } from '../sandbox/index.js';
import { keepLocalOutOfGit, readSettingsJson, settingsFile, settingsFiles, type SettingsScope } from './settings-layers.js';

/**
 * The settings (settings-layers.ts: user, project and local files): permission rules as
 * Claude Code writes them (`{"permissions": {"allow": [...], "ask": [...], "deny": [...]}}`),
 * with the bash rules whose commands may reach the network (`"network": ["Bash(npm install:*)"]`),
 * hooks and sandbox bounds. Rules and hooks of every layer add up; the most specific layer's
 * `sandbox` wins. A malformed file is an error naming the file and the field; it never reads as
 * "no rules".
 */
const RuleList = z.array(RuleText).default([]);
const SettingsFile = z.looseObject({
  permissions: z
    .looseObject({ allow: RuleList, deny: RuleList, ask: RuleList, network: z.array(NetworkRuleText).default([]) })
    .default({ allow: [], deny: [], ask: [], network: [] }),
});
/** Read apart from the rules: a mistake in a hook must not cost the project its deny rules, nor the reverse. */
const HooksFile = z.looseObject({ hooks: HooksSection });
/** Read apart as well: `{"sandbox": {"memory_mb": 4096, "processes": 512, "tmp_mb": 1024, "env": ["NODE_OPTIONS"]}}` (limits.ts). */
const SandboxFile = z.looseObject({ sandbox: SandboxLimits.optional() });

export type RuleKind = 'allow' | 'deny' | 'ask' | 'network';
export const RULE_KINDS = ['allow', 'deny', 'ask', 'network'] as const satisfies RuleKind[];

/** The project layer's file, where rules are saved unless another layer is named. */
export function settingsPath(home: string): string {
  return settingsFile(home, 'project');
}

export type RuleLayer = { scope: SettingsScope; file: string; rules: PermissionRules };

/** Each layer's rules, in the order the layers are read. Throws, naming the file and field, when one is malformed. */
export function loadRuleLayers(home: string): RuleLayer[] {
  return settingsFiles(home).map(({ scope, file }) => ({ scope, file, rules: readSettings(file).rules }));
}

/** The rules of every layer together, each once. */
export function loadProjectRules(home: string): PermissionRules {
  const layers = loadRuleLayers(home);
  const merged = (kind: RuleKind) => {
    const seen = new Set<string>();
    return layers.flatMap((layer) => layer.rules[kind]).filter((rule) => !seen.has(showRule(rule)) && Boolean(seen.add(showRule(rule))));
  };
  return { allow: merged('allow'), deny: merged('deny'), ask: merged('ask'), network: merged('network') };
}

/** Every layer's hooks by event, the user's first; none when there is no file. Throws, naming the file and field (`hooks.task_completed.0.command`), when they are malformed. */
export function loadProjectHooks(home: string): HooksConfig {
  const layers = settingsFiles(home).map(({ file }) => {
    const parsed = HooksFile.safeParse(readSettingsJson(file));
    if (!parsed.success) throw new Refused(`${file}: ${describeIssues(parsed.error, 'settings')}`);
    return parsed.data.hooks;
  });
  const merged: HooksConfig = {};
  for (const event of HOOK_EVENTS) {
    const hooks = layers.flatMap((layer) => layer[event] ?? []);
    if (hooks.length > 0) merged[event] = hooks;
  }
  return merged;
}

/** The bounds on every command and the variables it passes them, from the most specific layer that sets them; the defaults when none does. */
export function loadProjectSandbox(home: string): SandboxLimits {
  let limits: SandboxLimits = DEFAULT_LIMITS;
  for (const { file } of settingsFiles(home)) {
    const parsed = SandboxFile.safeParse(readSettingsJson(file));
    if (!parsed.success) throw new Refused(`${file}: ${describeIssues(parsed.error, 'settings')}`);
    limits = parsed.data.sandbox ?? limits;
  }
  return limits;
}

function readSettings(path: string): { rules: PermissionRules; raw: Record<string, unknown> } {
  const json = readSettingsJson(path);
  const parsed = SettingsFile.safeParse(json);
  if (!parsed.success) throw new Refused(`${path}: ${describeIssues(parsed.error, 'settings')}`);
  const { allow, deny, ask, network } = parsed.data.permissions;
  return { rules: { allow, deny, ask, network }, raw: json as Record<string, unknown> };
}

/** What the file held under `key`, so that fields this version does not know are kept on a write. */
function rawObject(json: Record<string, unknown>, key: string): Record<string, unknown> {
  const value = json[key];
  return typeof value === 'object' && value !== null ? (value as Record<string, unknown>) : {};
}

export type RuleChange = { changed: boolean; rules: PermissionRules; file: string };

/**
 * Add a rule to each of `kinds` (`allow` and `network` for `teams allow --network`) of one
 * layer's file (the project's unless named) in one write, a no-op for a list that holds it
 * already, under the file's lock: several `teams allow` may run at once. A network rule must be
 * a bash rule: anything else is refused, nothing written.
 */
export function addProjectRule(home: string, kinds: RuleKind | readonly RuleKind[], rule: PermissionRule, scope: SettingsScope = 'project'): RuleChange {
  const lists = typeof kinds === 'string' ? [kinds] : kinds;
  if (lists.includes('network') && rule.tool !== 'bash') throw new Refused(`${showRule(rule)} cannot be a network rule: a network rule names bash commands, e.g. Bash(npm install:*)`);
  return updateRules(home, scope, (rules) => {
    const missing = lists.filter((kind) => !rules[kind].some((r) => showRule(r) === showRule(rule)));
    if (missing.length === 0) return undefined;
    return { ...rules, ...Object.fromEntries(missing.map((kind) => [kind, [...rules[kind], rule]])) };
  });
}

/** Remove a rule from `kind`'s list of one layer's file, or from every list that holds it; `changed` is false when none did. */
export function removeProjectRule(home: string, rule: PermissionRule, kind?: RuleKind, scope: SettingsScope = 'project'): RuleChange {
  const text = showRule(rule);
  const lists = kind === undefined ? RULE_KINDS : [kind];
  return updateRules(home, scope, (rules) => {
    if (!lists.some((k) => rules[k].some((r) => showRule(r) === text))) return undefined;
    return { ...rules, ...Object.fromEntries(lists.map((k) => [k, rules[k].filter((r) => showRule(r) !== text)])) };
  });
}

function updateRules(home: string, scope: SettingsScope, change: (rules: PermissionRules) => PermissionRules | undefined): RuleChange {
  const path = settingsFile(home, scope);
  mkdirSync(dirname(path), { recursive: true });
  return withFileLock(`${path}.lock`, () => {
    const { rules, raw } = readSettings(path);
    const next = change(rules);
    if (!next) return { changed: false, rules, file: path };
    // The ask and network lists are written only when they have rules or the file had one: a file stays as Claude Code writes it.
    const before = rawObject(raw, 'permissions');
    const optional = (kind: 'ask' | 'network') => (next[kind].length > 0 || kind in before ? { [kind]: next[kind].map(showRule) } : {});
    const permissions = { ...before, allow: next.allow.map(showRule), ...optional('ask'), deny: next.deny.map(showRule), ...optional('network') };
    if (scope === 'local') keepLocalOutOfGit(home);
    writeFileAtomic(path, `${JSON.stringify({ ...raw, permissions }, null, 2)}\n`);
    return { changed: true, rules: next, file: path };
  });
}
