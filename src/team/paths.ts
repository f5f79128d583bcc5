import { createHash } from 'node:crypto';
import { homedir, tmpdir } from 'node:os';
import { dirname, isAbsolute, join, resolve } from 'node:path';
import { teamRoot } from '../store/index.js';
import { Refused } from '../lib/index.js';

/**
 * Where one team's state lives under the state root (default ./.teams): its directory, and
 * what is this machine's own. What the team's processes share (roster, requests, audit log,
 * mailboxes) is reached only through the team store, which keeps it where it likes.
 */
export type TeamPaths = {
  home: string;
  team: string;
  root: string;
  workspace: string;
  /** The running lead's control socket (a Unix socket path must fit in 108 bytes). */
  controlSocket: string;
  /** The capability a control command must carry: readable by the human's processes, hidden from every sandbox. */
  controlToken: string;
};

/**
 * The human's own settings for every project (`settings.json` there is the user layer of
 * the settings): `$TEAMS_CONFIG_DIR`, or `~/.config/teams`. Hidden from every sandbox.
 */
export function userConfigDir(env: NodeJS.ProcessEnv = process.env): string {
  const dir = env['TEAMS_CONFIG_DIR'];
  return dir !== undefined && dir !== '' ? resolve(dir) : join(homedir(), '.config', 'teams');
}

/** A deep state root puts the socket in a directory of its own under the temp dir instead. */
export function controlSocketPath(root: string): string {
  const inRoot = join(root, 'lead.sock');
  if (Buffer.byteLength(inRoot) < 100) return inRoot;
  return join(tmpdir(), `teams-${createHash('sha256').update(root).digest('hex').slice(0, 16)}`, 'lead.sock');
}

/**
 * Everything of the team's that an agent's tools and commands must never see: the state root
 * (config, journals, mailboxes, the control token) and the control socket's directory.
 */
export function hiddenFromAgents(paths: TeamPaths): string[] {
  const socketDir = dirname(paths.controlSocket);
  return socketDir === paths.root ? [paths.home] : [paths.home, socketDir];
}

export function teamPaths(home: string, team: string): TeamPaths {
  const absHome = isAbsolute(home) ? home : resolve(home);
  // The file store's directory of the team: its workspace and control socket live beside its files.
  const root = teamRoot(absHome, team);
  return {
    home: absHome,
    team,
    root,
    workspace: join(root, 'workspace'),
    controlSocket: controlSocketPath(root),
    controlToken: join(root, 'control.token'),
  };
}

/** A session's paths, or the refusal every command that edits project settings gives without them (a stand-in runtime has none). */
export function requirePaths(paths: TeamPaths | undefined): TeamPaths {
  if (!paths) throw new Refused('this session has no project settings file');
  return paths;
}
