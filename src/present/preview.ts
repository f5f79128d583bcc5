import * as z from 'zod';
import { diffLines, splitLines, toHunks, inertLine } from '../lib/index.js';

/**
 * What a permission request will do, shown to the human deciding it: a new file's lines, a
 * diff of a write or an edit against the file as it is now, a command with the reason it
 * asks, or any other tool's input as readable lines. Pure: the caller reads the current file
 * (confined to the working directory) and passes it in. The model chose every character of
 * the input, so each line is made inert, and the whole is capped.
 */

export type PreviewKind = 'header' | 'context' | 'added' | 'removed' | 'note';
export type PreviewLine = { kind: PreviewKind; text: string };

/** The file a write or an edit targets, as its caller found it. */
export type CurrentFile = { state: 'absent' } | { state: 'text'; text: string } | { state: 'unreadable'; error: string };

/** A tool call as a human is shown it before deciding: the tool, its input, and why it asks. */
export type PreviewedCall = { tool: string; input: unknown; reason?: string };

export const MAX_PREVIEW_LINES = 200;

const WriteInput = z.object({ path: z.string(), content: z.string() });
const EditInput = z.object({ path: z.string(), old_text: z.string(), new_text: z.string() });
const BashInput = z.object({ command: z.string() });
const AnyInput = z.record(z.string(), z.unknown());

/** Tabs become spaces (a terminal would align them unpredictably); every other control is escaped. */
const shown = (text: string) => inertLine(text.replace(/\t/g, '    '));
const line = (kind: PreviewKind, text: string): PreviewLine => ({ kind, text: shown(text) });

/** The path whose current content the preview of this call diffs against, if any. */
export function previewedPath(tool: string, input: unknown): string | undefined {
  if (tool !== 'write_file' && tool !== 'edit_file') return undefined;
  const parsed = z.object({ path: z.string().min(1) }).safeParse(input);
  return parsed.success ? parsed.data.path : undefined;
}

function numbered(text: string): PreviewLine[] {
  const lines = splitLines(text);
  const width = String(lines.length).length;
  return lines.map((l, i) => line('added', `${String(i + 1).padStart(width)}  ${l}`));
}

function unified(before: string, after: string): PreviewLine[] {
  const hunks = toHunks(diffLines(splitLines(before), splitLines(after)));
  if (hunks.length === 0) return [line('note', 'no change: the new content is the same as the file\'s')];
  return hunks.flatMap((h) => [
    line('header', `@@ -${h.oldStart},${h.oldCount} +${h.newStart},${h.newCount} @@`),
    ...h.ops.map((o) => (o.op === 'same' ? line('context', ` ${o.text}`) : o.op === 'add' ? line('added', `+${o.text}`) : line('removed', `-${o.text}`))),
  ]);
}

const countLines = (text: string) => {
  const n = splitLines(text).length;
  return `${n} line${n === 1 ? '' : 's'}`;
};

function writePreview(input: z.infer<typeof WriteInput>, current: CurrentFile | undefined): PreviewLine[] {
  if (current?.state === 'text') {
    return [line('header', `write_file ${input.path}: replaces ${countLines(current.text)} with ${countLines(input.content)}`), ...unified(current.text, input.content)];
  }
  const head = current?.state === 'unreadable'
    ? [line('header', `write_file ${input.path} (${countLines(input.content)})`), line('note', `the current file cannot be read (${current.error}); its new content:`)]
    : [line('header', `write_file ${input.path}: a new file of ${countLines(input.content)}`)];
  return [...head, ...numbered(input.content)];
}

function occurrences(text: string, part: string): number[] {
  const at: number[] = [];
  for (let i = text.indexOf(part); i >= 0; i = text.indexOf(part, i + 1)) at.push(i);
  return at;
}

/** The edit applied as edit_file applies it: old_text must occur exactly once. */
function editPreview(input: z.infer<typeof EditInput>, current: CurrentFile | undefined): PreviewLine[] {
  const header = line('header', `edit_file ${input.path}`);
  const strings = [line('note', 'old_text:'), ...splitLines(input.old_text).map((l) => line('removed', `-${l}`)), line('note', 'new_text:'), ...splitLines(input.new_text).map((l) => line('added', `+${l}`))];
  if (current?.state !== 'text') {
    const why = current?.state === 'unreadable' ? `the file cannot be read (${current.error})` : current?.state === 'absent' ? 'the file does not exist, so the edit will fail' : 'the file was not read';
    return [header, line('note', why), ...strings];
  }
  const found = input.old_text === '' ? [] : occurrences(current.text, input.old_text);
  if (found.length !== 1) {
    const why = found.length === 0 ? 'old_text is not in the file, so the edit will fail' : `old_text occurs ${found.length} times in the file, so the edit will fail`;
    return [header, line('note', why), ...strings];
  }
  const at = found[0] as number;
  const after = current.text.slice(0, at) + input.new_text + current.text.slice(at + input.old_text.length);
  return [header, ...unified(current.text, after)];
}

function bashPreview(input: z.infer<typeof BashInput>): PreviewLine[] {
  const lines = splitLines(input.command);
  return [line('header', 'bash'), ...lines.map((l, i) => line('context', `${i === 0 ? '$' : '>'} ${l}`))];
}

/** Any other input: `key: value`, a string of several lines indented below its key. */
function keyValuePreview(tool: string, input: unknown): PreviewLine[] {
  const parsed = AnyInput.safeParse(input);
  if (!parsed.success) return [line('header', tool), line('context', JSON.stringify(input) ?? String(input))];
  const body = Object.entries(parsed.data).flatMap(([key, value]): PreviewLine[] => {
    const text = typeof value === 'string' ? value : JSON.stringify(value, null, 2) ?? String(value);
    const lines = splitLines(text);
    if (lines.length <= 1) return [line('context', `${key}: ${lines[0] ?? ''}`)];
    return [line('context', `${key}:`), ...lines.map((l) => line('context', `    ${l}`))];
  });
  return [line('header', tool), ...body];
}

function cap(lines: PreviewLine[], max: number): PreviewLine[] {
  if (lines.length <= max) return lines;
  const kept = lines.slice(0, max - 1);
  return [...kept, { kind: 'note', text: `… ${lines.length - kept.length} more preview lines not shown` }];
}

/** The preview of one tool call; `current` is the file `previewedPath` names, as read now. */
export function previewToolCall(call: PreviewedCall, current?: CurrentFile, max = MAX_PREVIEW_LINES): PreviewLine[] {
  const write = call.tool === 'write_file' ? WriteInput.safeParse(call.input) : undefined;
  const edit = call.tool === 'edit_file' ? EditInput.safeParse(call.input) : undefined;
  const bash = call.tool === 'bash' ? BashInput.safeParse(call.input) : undefined;
  const body = write?.success
    ? writePreview(write.data, current)
    : edit?.success
      ? editPreview(edit.data, current)
      : bash?.success
        ? bashPreview(bash.data)
        : keyValuePreview(call.tool, call.input);
  const reason = call.reason ? [line('note', `asks because: ${call.reason}`)] : [];
  // The reason first: it must survive the cap.
  return cap([...body.slice(0, 1), ...reason, ...body.slice(1)], max);
}
