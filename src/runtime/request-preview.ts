import { stat } from 'node:fs/promises';
import { asError } from '../lib/as-error.js';
import { previewedPath, previewToolCall, type CurrentFile, type PreviewLine } from '../team/preview.js';
import type { RequestRecord } from '../tracker/records.js';
import { confinePath } from '../tools/confine.js';
import { realFileIO } from '../tools/files.js';

/** Where the agents' file tools work: the preview reads a file only as they would. */
export type PreviewPlace = { cwd: string; hidden: readonly string[] };

/**
 * The file a write or an edit targets, read through the same confinement as the file tools:
 * a path outside the working directory (by `..`, absolute, or a symbolic link) or inside the
 * team's state is never opened, only named as unreadable.
 */
async function currentFile(path: string, place: PreviewPlace): Promise<CurrentFile> {
  try {
    const absolute = await confinePath(place.cwd, path, place.hidden);
    const exists = await stat(absolute).then(
      () => true,
      (error: NodeJS.ErrnoException) => (error.code === 'ENOENT' ? false : Promise.reject(error)),
    );
    if (!exists) return { state: 'absent' };
    return { state: 'text', text: await realFileIO(place.cwd, place.hidden).readText(path) };
  } catch (error) {
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
