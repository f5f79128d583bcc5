import { existsSync, realpathSync } from 'node:fs';
import { readRegularFile } from '../lib/index.js';
import { dirname, join } from 'node:path';

/**
 * Project instructions, as Codex and Claude Code read them: `AGENTS.md` (and `CLAUDE.md` where a
 * project has one) in the agent's working directory and each directory above it up to the
 * repository's root, put into every agent's system prompt, outermost first so that the nearest,
 * most specific file comes last. Read once, as the agent starts: the system prompt stays the
 * same for the whole session, which keeps it cached.
 *
 * A teammate can write in the working directory, so a file here may have been planted by one.
 * Its words are a prompt injection like any file an agent reads (the sandbox and the human's
 * approvals bind whatever a model says), but the lead reads it outside any sandbox: a symlink
 * must not make the lead read, and send to its model, a file the teammate could not see. So a
 * file is opened without following links, must be a regular file, and is read only up to a cap.
 */
export const INSTRUCTION_FILES = ['AGENTS.md', 'CLAUDE.md'] as const;
/** Per file: instructions are a page or two; more is cut, and the cut said. */
export const MAX_INSTRUCTION_BYTES = 32 * 1024;

export type InstructionFile = { path: string; text: string; truncated: boolean };

/** The directories to look in: `cwd` and each parent, up to the one holding `.git` (or the root). */
function searchedDirs(cwd: string): string[] {
  const dirs: string[] = [];
  let dir = realpathSync(cwd);
  for (;;) {
    dirs.push(dir);
    if (existsSync(join(dir, '.git'))) break;
    const parent = dirname(dir);
    if (parent === dir) break;
    dir = parent;
  }
  return dirs.reverse();
}

/** A regular file's first MAX_INSTRUCTION_BYTES, never through a link; undefined if there is none. */
function readInstructionFile(path: string): InstructionFile | undefined {
  // Missing, a symlink, not a regular file or unreadable: no instructions from it.
  const read = readRegularFile(path, MAX_INSTRUCTION_BYTES);
  if (!read.ok) return undefined;
  const text = read.text.trim();
  return text === '' ? undefined : { path, text, truncated: read.truncated };
}

/** The project instructions an agent working in `cwd` is given, outermost first. */
export function findProjectInstructions(cwd: string): InstructionFile[] {
  return searchedDirs(cwd).flatMap((dir) => INSTRUCTION_FILES.flatMap((name) => readInstructionFile(join(dir, name)) ?? []));
}

/** `system` with the project instructions after it, each under its path. */
export function withProjectInstructions(system: string, files: readonly InstructionFile[]): string {
  if (files.length === 0) return system;
  const sections = files.map((file) => `## ${file.path}\n\n${file.text}${file.truncated ? `\n\n(cut at ${MAX_INSTRUCTION_BYTES / 1024} KiB)` : ''}`);
  return `${system}\n\n# Project instructions\n\nThe project's own instructions (AGENTS.md, CLAUDE.md), outermost first: follow them where they do not conflict with the rules above.\n\n${sections.join('\n\n')}`;
}
