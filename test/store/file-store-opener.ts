import * as z from 'zod';
import { openFileStore } from '../../src/store/file/file-store.js';
import type { TeamStore } from '../../src/store/team-store.js';
import { teamPaths } from '../../src/team/paths.js';

/** How the conformance suite names a file store to another process: its state root and team. */
export const FileDescriptor = z.object({ home: z.string().min(1), team: z.string().min(1) });

/** The file store's opener, imported by the suite's child processes too. */
export async function openStore(descriptor: string): Promise<TeamStore> {
  const { home, team } = FileDescriptor.parse(JSON.parse(descriptor));
  return openFileStore(teamPaths(home, team));
}
