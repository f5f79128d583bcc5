import { posix } from 'node:path';
import * as z from 'zod';
import { isInside } from './places.js';

const BashInput = z.object({ command: z.string() });
const FileInput = z.object({ path: z.string() });
const ASSIGNMENT = /^[A-Za-z_][A-Za-z0-9_]*=/;
/** A second word read as a subcommand (`npm test`, `git commit`), not an option or a file. */
const SUBCOMMAND = /^[a-z][a-z0-9-]*$/;

/**
 * The allow rule the approval queue offers for one call, for the human to edit before it is
 * saved: a command's program (and subcommand) as a prefix, `bash(npm test*)`; a written or
 * edited file's directory, `write_file(src/**)`. Undefined when no narrow rule fits (a path
 * outside the working directory, which no file rule can match). Pure; the text is checked by
 * parseRule when confirmed.
 */
export function suggestRule(tool: string, input: unknown, cwd: string): string | undefined {
  const text = suggestion(tool, input, cwd);
  // The text comes from an agent's call and is shown in an editable line: no terminal controls in it.
  return text === undefined || CONTROL.test(text) ? undefined : text;
}

// eslint-disable-next-line no-control-regex -- looking for control characters is the point
const CONTROL = /[\u0000-\u001f\u007f-\u009f]/;

function suggestion(tool: string, input: unknown, cwd: string): string | undefined {
  if (tool === 'bash') {
    const parsed = BashInput.safeParse(input);
    if (!parsed.success) return undefined;
    const words = parsed.data.command.trim().split(/\s+/).filter((w) => !ASSIGNMENT.test(w));
    const [program, second] = words;
    if (program === undefined || program === '') return undefined;
    const prefix = second !== undefined && SUBCOMMAND.test(second) ? `${program} ${second}` : program;
    return `bash(${prefix}*)`;
  }
  if (tool !== 'write_file' && tool !== 'edit_file' && tool !== 'read_file') return tool;
  const parsed = FileInput.safeParse(input);
  if (!parsed.success) return undefined;
  const absolute = posix.resolve(cwd, parsed.data.path);
  if (!isInside(absolute, cwd) || absolute === posix.resolve(cwd)) return undefined;
  const dir = posix.dirname(posix.relative(cwd, absolute));
  // A file at the top: the file itself, since `**` there would be every file of the project.
  return dir === '.' ? `${tool}(${posix.relative(cwd, absolute)})` : `${tool}(${dir}/**)`;
}
