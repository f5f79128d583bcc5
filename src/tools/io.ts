import type { FileIO } from './files.js';
import type { ShellIO } from './shell.js';
import type { TeamIO } from './team-io.js';

/** Everything a tool may touch, handed to it per call; each tool declares the part it uses. */
export type ToolIO = {
  files: FileIO;
  shell: ShellIO;
  team: TeamIO;
  /** The working directory: where commands run and what file paths are relative to. */
  cwd: string;
};
