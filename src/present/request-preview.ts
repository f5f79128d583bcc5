import { asError } from '../lib/index.js';
import { previewedPath, previewToolCall, type CurrentFile, type PreviewLine } from './preview.js';
import type { RequestRecord } from '../protocol/index.js';
import { MissingFileError, realFileIO } from '../tools/index.js';

/** Where the agents' file tools work: the preview reads a file only as they would. */
export type PreviewPlace = { cwd: string; hidden: readonly string[] };

/**
 * The file a write or an edit targets, read exactly as the file tools read it: confined to the
 * working directory and out of the team's state, through directory descriptors that follow no
 * link swapped in since the check, and only when it is a regular file (a FIFO, a device or a
 * socket is refused without blocking). Anything else is only named as unreadable.
 */
async function currentFile(path: string, place: PreviewPlace): Promise<CurrentFile> {
  try {
    return { state: 'text', text: await realFileIO(place.cwd, place.hidden).readText(path) };
  } catch (error) {
    if (error instanceof MissingFileError) return { state: 'absent' };
    return { state: 'unreadable', error: asError(error).message };
  }
}

/** What a permission request will do, against the file as it is now; undefined for other requests. */
export async function previewRequest(record: RequestRecord, place: PreviewPlace): Promise<PreviewLine[] | undefined> {
  const call = record.tool;
  if (!call) return undefined;
  const path = previewedPath(call.name, call.input);
  const current = path === undefined ? undefined : await currentFile(path, place);
  return previewToolCall({ tool: call.name, input: call.input, reason: call.reason }, current);
}
