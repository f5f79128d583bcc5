import * as z from 'zod';
import type { ToolIO } from './io.js';
import { defineTool } from './tool.js';

// Without a limit a huge file would flood the context; the note says how to read on.
export const DEFAULT_READ_LINES = 2000;

const Input = z.strictObject({
  path: z.string().min(1, 'path is empty').describe('File path, relative to the working directory.'),
  limit: z.number().int().positive().max(1_000_000).optional().describe(`Read at most this many lines from the start (default ${DEFAULT_READ_LINES}).`),
});

export const readFileTool = defineTool({
  name: 'read_file',
  description: 'Read a text file in the working directory. Returns its content, cut after `limit` lines with a note saying how many were left out.',
  input: Input,
  async run(input, io: Pick<ToolIO, 'files'>) {
    const text = await io.files.readText(input.path);
    if (text === '') return { content: '(empty file)' };
    const lines = text.split('\n');
    if (lines.at(-1) === '') lines.pop();
    const limit = input.limit ?? DEFAULT_READ_LINES;
    if (lines.length <= limit) return { content: text };
    const rest = lines.length - limit;
    const hint = `[… ${rest} more line${rest === 1 ? '' : 's'} (${lines.length} in all); use bash \`sed -n '${limit + 1},${limit + DEFAULT_READ_LINES}p' ${input.path}\` to read on]`;
    return { content: `${lines.slice(0, limit).join('\n')}\n${hint}` };
  },
});
