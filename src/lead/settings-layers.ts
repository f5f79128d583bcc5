import { appendFileSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { Refused, errnoCode, errorMessage } from '../lib/index.js';
import { userConfigDir } from '../team/index.js';

/**
 * Settings come in three layers, as in Claude Code, read in this order:
 * - `user`: the human's own, for every project (`~/.config/teams/settings.json`);
 * - `project`: the state root's `settings.json`, meant to be committed with the project;
 * - `local`: the state root's `settings.local.json`, this checkout's own, kept out of git.
 * Every layer lives where no agent's tools or sandbox reach (the state root is hidden, and so is
 * the user's directory), so no teammate can add a rule or a hook to any of them.
 */
const LOCAL_NAME = 'settings.local.json';

export const SCOPES = ['user', 'project', 'local'] as const;
export type SettingsScope = (typeof SCOPES)[number];

export function settingsFile(home: string, scope: SettingsScope, env: NodeJS.ProcessEnv = process.env): string {
  switch (scope) {
    case 'user':
      return join(userConfigDir(env), 'settings.json');
    case 'project':
      return join(home, 'settings.json');
    case 'local':
      return join(home, LOCAL_NAME);
  }
}

/** Every layer's file, in the order they are read. */
export function settingsFiles(home: string, env: NodeJS.ProcessEnv = process.env): { scope: SettingsScope; file: string }[] {
  return SCOPES.map((scope) => ({ scope, file: settingsFile(home, scope, env) }));
}

/** A file as JSON; `{}` when there is none. A file that is there but unreadable or not JSON is an error naming it. */
export function readSettingsJson(path: string): unknown {
  let text: string;
  try {
    text = readFileSync(path, 'utf8');
  } catch (error) {
    if (errnoCode(error) === 'ENOENT') return {};
    throw new Refused(`${path}: cannot be read (${errorMessage(error)})`);
  }
  try {
    return JSON.parse(text);
  } catch (error) {
    throw new Refused(`${path}: not JSON (${errorMessage(error)})`);
  }
}

/**
 * The local layer is this checkout's alone: when one is written, the state root's ignore file
 * says so (the project's `settings.json` beside it stays the user's to commit).
 */
export function keepLocalOutOfGit(home: string): void {
  const ignore = join(home, '.gitignore');
  let text = '';
  try {
    text = readFileSync(ignore, 'utf8');
  } catch (error) {
    if (errnoCode(error) !== 'ENOENT') throw error;
  }
  if (text.split('\n').some((line) => line.trim() === LOCAL_NAME)) return;
  appendFileSync(ignore, `${text === '' || text.endsWith('\n') ? '' : '\n'}${LOCAL_NAME}\n`);
}
