import { mkdirSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import * as z from 'zod';
import { writeFileAtomic } from '../files/atomic-file.js';
import { withFileLock } from '../files/file-lock.js';
import { Refused } from '../lib/refused.js';
import { describeIssues } from '../lib/zod-issues.js';
import { RuleText, showRule, type PermissionRule, type PermissionRules } from '../policy/rules.js';
import { HooksSection, type HooksConfig } from './hook-settings.js';

/**
 * The project's settings, `<home>/settings.json`: its permission rules, as Claude Code
 * writes them (`{"permissions": {"allow": [...], "deny": [...]}}`), and its hooks
 * (hook-settings.ts). It lives under the state
 * root, which every agent's tools and sandbox are kept out of: a teammate cannot write it.
 * Shared by every team under that root. A malformed file is an error naming the file and
 * the field; it never reads as "no rules".
 */
const RuleList = z.array(RuleText).default([]);
const SettingsFile = z.looseObject({
  permissions: z.looseObject({ allow: RuleList, deny: RuleList }).default({ allow: [], deny: [] }),
});
/** Read apart from the rules: a mistake in a hook must not cost the project its deny rules, nor the reverse. */
const HooksFile = z.looseObject({ hooks: HooksSection });

export type RuleKind = 'allow' | 'deny';

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

/** The file as JSON; `{}` when there is none. */
function readJson(path: string): unknown {
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
  const { allow, deny } = parsed.data.permissions;
  return { rules: { allow, deny }, raw: json as Record<string, unknown> };
}

/** What the file held under `key`, so that fields this version does not know are kept on a write. */
function rawObject(json: Record<string, unknown>, key: string): Record<string, unknown> {
  const value = json[key];
  return typeof value === 'object' && value !== null ? (value as Record<string, unknown>) : {};
}

export type RuleChange = { changed: boolean; rules: PermissionRules };

/** Add a rule (a no-op when it is there already), under the file's lock: several `teams allow` may run at once. */
export function addProjectRule(home: string, kind: RuleKind, rule: PermissionRule): RuleChange {
  return updateRules(home, (rules) => {
    if (rules[kind].some((r) => showRule(r) === showRule(rule))) return undefined;
    return { ...rules, [kind]: [...rules[kind], rule] };
  });
}

/** Remove a rule from whichever list holds it; `changed` is false when none did. */
export function removeProjectRule(home: string, rule: PermissionRule): RuleChange {
  const text = showRule(rule);
  return updateRules(home, (rules) => {
    if (![...rules.allow, ...rules.deny].some((r) => showRule(r) === text)) return undefined;
    return { allow: rules.allow.filter((r) => showRule(r) !== text), deny: rules.deny.filter((r) => showRule(r) !== text) };
  });
}

function updateRules(home: string, change: (rules: PermissionRules) => PermissionRules | undefined): RuleChange {
  const path = settingsPath(home);
  mkdirSync(dirname(path), { recursive: true });
  return withFileLock(`${path}.lock`, () => {
    const { rules, raw } = readSettings(path);
    const next = change(rules);
    if (!next) return { changed: false, rules };
    const permissions = { ...rawObject(raw, 'permissions'), allow: next.allow.map(showRule), deny: next.deny.map(showRule) };
    writeFileAtomic(path, `${JSON.stringify({ ...raw, permissions }, null, 2)}\n`);
    return { changed: true, rules: next };
  });
}
