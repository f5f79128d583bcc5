import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { inertLine, writeFileAtomic, errnoCode, isMissing, withFileLock, type FileLockOptions, asError, lookOnChange, errorMessage } from '../../lib/index.js';
import { removeStrayTemporaries } from './stray-temporaries.js';
import { newTeam, rosterIssues, TeamConfig, type CreateTeamOptions } from '../roster.js';
import type { RosterStore, Subscription, WatchProblem } from '../team-store.js';
import { fileLayout, type FileLocation } from './layout.js';
import { registerStateRoot } from '../state-root-registry.js';

/**
 * The roster as `config.json`. Every change is lock + read + mutate + atomic replace;
 * readers never lock, since the atomic rename means they see a whole file, old or new.
 */

/** Where `text` holds a C0 control character JSON never allows (only tab, newline and CR), if it does. */
function binaryAt(text: string): { index: number; char: string } | undefined {
  // eslint-disable-next-line no-control-regex -- looking for control characters is the point
  const match = /[\u0000-\u0008\u000b\u000c\u000e-\u001f]/.exec(text);
  return match ? { index: match.index, char: match[0] } : undefined;
}

/**
 * The team's config, or undefined if the team does not exist. A corrupt file is an error naming
 * it, saying what is wrong without echoing its raw bytes.
 */
function readConfig(location: FileLocation): TeamConfig | undefined {
  const path = fileLayout(location.root).config;
  let text: string;
  try {
    text = readFileSync(path, 'utf8');
  } catch (error) {
    if (isMissing(error)) return undefined;
    // Node's EISDIR message names neither the file nor the remedy.
    if (errnoCode(error) === 'EISDIR') throw new Error(`${path}: is a directory, not a team config file`);
    throw error;
  }
  const binary = binaryAt(text);
  if (binary) {
    throw new Error(`${path} is not a team config file: it holds binary data (control character ${inertLine(binary.char)} at character ${binary.index})`);
  }
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (error) {
    // The parser's message quotes the text around the error: escaped, like the rest.
    throw new Error(`${path} is not valid JSON (${inertLine(errorMessage(error))})`);
  }
  const parsed = TeamConfig.safeParse(value);
  if (!parsed.success) throw new Error(`${path} is not a valid team config: ${rosterIssues(parsed.error)}`);
  return parsed.data;
}

function save(location: FileLocation, config: TeamConfig): TeamConfig {
  const path = fileLayout(location.root).config;
  const parsed = TeamConfig.safeParse(config);
  if (!parsed.success) throw new Error(`refusing to write an invalid team config to ${path}: ${rosterIssues(parsed.error)}`);
  writeFileAtomic(path, `${JSON.stringify(parsed.data, null, 2)}\n`);
  return parsed.data;
}

/**
 * The default state root is inside the project: a team's mailboxes, logs, sessions and
 * teammates' worktrees are no work of the project's, and must not show in its `git status` (or
 * be committed by `git add -A`). An ignore file of the team's own directory says so, touching
 * nothing outside it; the settings file, one level up, stays the user's to commit.
 */
function keepOutOfGit(root: string): void {
  try {
    writeFileSync(join(root, '.gitignore'), "# teams: this team's state; not for version control\n*\n", { flag: 'wx' });
  } catch (error) {
    if (errnoCode(error) !== 'EEXIST') throw error;
  }
}

/** The team's config, created first if absent: safe when several processes race to create the team. */
function ensureConfig(location: FileLocation, options: CreateTeamOptions = {}): TeamConfig {
  const existing = readConfig(location);
  if (existing) return existing;
  mkdirSync(location.root, { recursive: true });
  keepOutOfGit(location.root);
  return withFileLock(fileLayout(location.root).configLock, () => readConfig(location) ?? save(location, newTeam(location.team, options)));
}

/**
 * Read-modify-write under the team lock (`FileRoster.update`; the lock's options are for its
 * tests). `mutate` changes the draft in place, synchronously, or throws to refuse; the result
 * is validated before it replaces the file.
 */
export function updateConfig<T>(
  location: FileLocation,
  mutate: (draft: TeamConfig) => T,
  options?: FileLockOptions,
): { config: TeamConfig; result: T } {
  const { config, configLock } = fileLayout(location.root);
  const missing = () => new Error(`no team '${location.team}' (${config} does not exist); create it first`);
  if (!existsSync(location.root)) throw missing();
  return withFileLock(
    configLock,
    () => {
      const current = readConfig(location);
      if (!current) throw missing();
      const result = mutate(current);
      return { config: save(location, current), result };
    },
    options,
  );
}

/** The roster store over `config.json`. */
export class FileRoster implements RosterStore {
  constructor(private readonly location: FileLocation) {}

  async load(): Promise<TeamConfig | undefined> {
    return readConfig(this.location);
  }

  async ensure(options?: CreateTeamOptions): Promise<TeamConfig> {
    const config = ensureConfig(this.location, options);
    // Every lead (and `teams member`) passes here, so a root made before the registry existed
    // is registered too. A registry that cannot be written must not stop the team: the
    // sandbox still hides this root (it is the team's own) and `teams doctor` reports it.
    registerStateRoot(dirname(this.location.root));
    // Left by processes killed mid-write (config saves, lock attempts): harmless, but they pile up.
    removeStrayTemporaries(this.location.root);
    return config;
  }

  async update<T>(mutate: (draft: TeamConfig) => T): Promise<{ config: TeamConfig; result: T }> {
    return updateConfig(this.location, mutate);
  }

  async watch(listener: (config: TeamConfig) => void, onProblem: WatchProblem): Promise<Subscription> {
    return lookOnChange([fileLayout(this.location.root).config], () => {
      // Someone else's write may be half done by hand, or not the team's format at all: say so
      // and wait for the next change.
      let config: TeamConfig | undefined;
      try {
        config = readConfig(this.location);
      } catch (error) {
        onProblem(asError(error));
        return;
      }
      if (config) listener(config);
    });
  }
}
