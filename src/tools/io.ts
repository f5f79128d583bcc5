import type { CommandGrant } from '../policy/index.js';
import type { FileIO } from './files.js';
import type { ShellIO } from './shell.js';
import type { TeamIO } from './team-io.js';

/**
 * Everything a tool may touch, handed to it per call; each tool declares the part it uses.
 * `Team` is the role's view of the team: a tool that needs the lead's actions takes
 * `ToolIO<LeadTeamIO>`, and so cannot be put in a teammate's toolset.
 */
export type ToolIO<Team extends TeamIO = TeamIO> = {
  files: FileIO;
  shell: ShellIO;
  team: Team;
  /** The working directory: where commands run and what file paths are relative to. */
  cwd: string;
  /** What the policy granted this call's command (bash only): enforced by the sandbox. */
  grant: CommandGrant;
};
