import * as z from 'zod';
import { Refused, describeIssues } from '../lib/index.js';
import type { PermissionMode } from '../protocol/index.js';
import { readSettingsJson, settingsFiles, type SettingsScope } from './settings-layers.js';

/**
 * The mode names a settings file or `--permission-mode` may use: ours, and Claude Code's for the
 * same modes (its settings.json says `acceptEdits`, `bypassPermissions`). Claude Code's
 * `dontAsk` has no counterpart here, so it is refused by name rather than guessed at.
 */
const MODE_NAMES: Readonly<Record<string, PermissionMode>> = {
  default: 'default',
  'accept-edits': 'accept-edits',
  acceptEdits: 'accept-edits',
  plan: 'plan',
  bypass: 'bypass',
  bypassPermissions: 'bypass',
};

/** A mode name in our spelling or Claude Code's; undefined when it names none. */
export function modeNamed(name: string): PermissionMode | undefined {
  return Object.hasOwn(MODE_NAMES, name) ? MODE_NAMES[name] : undefined;
}

const ModeName = z.string().refine((name) => modeNamed(name) !== undefined, { message: `not a mode: one of ${Object.keys(MODE_NAMES).join(', ')}` });

/** `permissions.defaultMode` and `permissions.disableBypassPermissionsMode`, as in Claude Code's settings.json. */
const ModeFile = z.looseObject({
  permissions: z.looseObject({ defaultMode: ModeName.optional(), disableBypassPermissionsMode: z.literal('disable').optional() }).optional(),
});

/** What one settings layer says of the lead's starting mode. */
export type ModeLayer = { scope: SettingsScope; file: string; defaultMode: string | undefined; disablesBypass: boolean };

/** Each layer's say, least specific first. Throws, naming the file and field, when one is malformed. */
export function loadModeLayers(home: string): ModeLayer[] {
  return settingsFiles(home).map(({ scope, file }) => {
    const parsed = ModeFile.safeParse(readSettingsJson(file));
    if (!parsed.success) throw new Refused(`${file}: ${describeIssues(parsed.error, 'settings')}`);
    const permissions = parsed.data.permissions;
    return { scope, file, defaultMode: permissions?.defaultMode, disablesBypass: permissions?.disableBypassPermissionsMode === 'disable' };
  });
}

/** The lead's starting mode, where it came from (`--permission-mode`, a file, or none), and what the human must be told of a setting left unused. */
export type StartMode = { mode: PermissionMode; from: string | undefined; notes: string[] };

/** The starting mode as `/permissions` and `teams permissions` show it, with what set it. */
export function startModeLine(home: string): string {
  const { mode, from, notes } = startMode(undefined, loadModeLayers(home));
  const source = from === undefined ? 'no settings file sets permissions.defaultMode' : `permissions.defaultMode in ${from}`;
  return [`the lead starts in mode ${mode} (${source}; --permission-mode overrides it)`, ...notes.map((note) => `  ${note}`)].join('\n');
}

/**
 * The mode the lead starts in: `--permission-mode` when given, else the most specific layer's
 * `defaultMode`, else default. `bypass` turns approvals off, so a file may ask for it only from
 * the user's own layer: a project's settings come with the repository, from whoever wrote it.
 * Asked for by a project or local file, it is passed over with a line saying so, never silently.
 * `disableBypassPermissionsMode: "disable"` in any layer refuses bypass from anywhere, the
 * flag included (then the lead does not start).
 */
export function startMode(flag: PermissionMode | undefined, layers: readonly ModeLayer[]): StartMode {
  const disabledBy = layers.find((layer) => layer.disablesBypass)?.file;
  if (flag !== undefined) {
    if (flag === 'bypass' && disabledBy !== undefined) throw new Refused(`--permission-mode bypass is disabled by permissions.disableBypassPermissionsMode in ${disabledBy}`);
    return { mode: flag, from: '--permission-mode', notes: [] };
  }
  const notes: string[] = [];
  for (const layer of [...layers].reverse()) {
    const mode = layer.defaultMode === undefined ? undefined : modeNamed(layer.defaultMode);
    if (mode === undefined) continue;
    if (mode === 'bypass' && disabledBy !== undefined) {
      notes.push(`${layer.file}: permissions.defaultMode "${layer.defaultMode}" passed over: bypass is disabled by permissions.disableBypassPermissionsMode in ${disabledBy}`);
      continue;
    }
    if (mode === 'bypass' && layer.scope !== 'user') {
      notes.push(`${layer.file}: permissions.defaultMode "${layer.defaultMode}" passed over: approvals are turned off only by the user's own settings or --permission-mode bypass, never by a project's file`);
      continue;
    }
    return { mode, from: layer.file, notes };
  }
  return { mode: 'default', from: undefined, notes };
}
