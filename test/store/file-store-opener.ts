import * as z from 'zod';
import { openStore as openByDescriptor } from '../../src/store/open-store.js';
import type { TeamStore } from '../../src/store/team-store.js';

/** How the conformance suite names a file store to another process: its state root and team. */
export const FileDescriptor = z.object({ home: z.string().min(1), team: z.string().min(1) });

/** The file store's opener, imported by the suite's child processes too. */
export async function openStore(descriptor: string): Promise<TeamStore> {
  const { home, team } = FileDescriptor.parse(JSON.parse(descriptor));
  return openByDescriptor('file:', { home, team });
}
