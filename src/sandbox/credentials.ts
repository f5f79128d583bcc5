import { realpathSync, statSync } from 'node:fs';
import { join, relative, isAbsolute } from 'node:path';

/**
 * Where people keep credentials under their home directory. A command reads what the human can
 * read, and a read-only, offline command can still put a private key into its output, where a
 * hostile model reads it and carries it out later (a message, an approved command with the
 * network). No command has any business reading these, so the sandbox covers them: a directory
 * with an empty read-only one, a file with /dev/null. Config files that mix settings and tokens
 * (`.npmrc`, `.pypirc`) are left visible: package managers need them.
 */
const CREDENTIAL_PATHS = [
  '.ssh',
  '.gnupg',
  '.aws',
  '.azure',
  '.config/gcloud',
  '.kube',
  '.docker',
  '.config/gh',
  '.config/hub',
  '.password-store',
  '.netrc',
  '.git-credentials',
  // git's credential store writes here when the directory exists ($XDG_CONFIG_HOME/git/credentials).
  '.config/git/credentials',
  '.config/containers/auth.json',
  '.terraform.d/credentials.tfrc.json',
  '.cache/huggingface/token',
  '.huggingface/token',
  '.local/share/keyrings',
  '.vault-token',
  '.pgpass',
  '.cargo/credentials',
  '.cargo/credentials.toml',
] as const;

export type HiddenPaths = { dirs: string[]; files: string[] };

function inside(path: string, dir: string): boolean {
  const rel = relative(dir, path);
  return rel === '' || (!rel.startsWith('..') && !isAbsolute(rel));
}

/**
 * The credential paths under `home` that exist now, and the `private` ones given by absolute
 * path (the human's teams settings), split by how they are covered, as real paths (a link is
 * covered where it leads: bubblewrap mounts there, and cannot mount on the link); none that
 * holds the working directory.
 */
export function credentialPaths(home: string, cwd: string, privatePaths: readonly string[] = []): HiddenPaths {
  const hidden: HiddenPaths = { dirs: [], files: [] };
  for (const given of [...CREDENTIAL_PATHS.map((name) => join(home, name)), ...privatePaths]) {
    const stat = statSync(given, { throwIfNoEntry: false });
    if (stat === undefined) continue;
    const path = realpathSync(given);
    if (inside(cwd, path)) continue;
    if (stat.isDirectory()) hidden.dirs.push(path);
    else hidden.files.push(path);
  }
  return hidden;
}
