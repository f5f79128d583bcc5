import * as z from 'zod';
import type { ToolIO } from './io.js';
import { defineTool } from './tool.js';

const Input = z.strictObject({
  path: z.string().min(1, 'path is empty').describe('File path, relative to the working directory.'),
  old_text: z.string().min(1, 'old_text is empty').describe('Exact text to replace, whitespace included; it must occur exactly once in the file.'),
  new_text: z.string().describe('The text to put in its place.'),
});

function occurrences(text: string, part: string): number[] {
  const at: number[] = [];
  for (let i = text.indexOf(part); i >= 0; i = text.indexOf(part, i + 1)) at.push(i);
  return at;
}

function lineOf(text: string, index: number): number {
  return text.slice(0, index).split('\n').length;
}

export const editFileTool = defineTool({
  name: 'edit_file',
  description:
    'Replace one exact piece of text in a file. old_text must match the file exactly (whitespace and ' +
    'indentation included) and occur exactly once: include enough surrounding lines to make it unique.',
  input: Input,
  async run(input, io: Pick<ToolIO, 'files'>) {
    const text = await io.files.readText(input.path);
    const found = occurrences(text, input.old_text);
    if (found.length === 0) {
      return { content: `old_text was not found in ${input.path}; read the file and copy the text exactly, whitespace included.`, isError: true };
    }
    if (found.length > 1) {
      const lines = found.map((i) => lineOf(text, i)).join(', ');
      return { content: `old_text occurs ${found.length} times in ${input.path} (at lines ${lines}); include more surrounding text so it occurs once.`, isError: true };
    }
    const at = found[0] as number;
    await io.files.writeText(input.path, text.slice(0, at) + input.new_text + text.slice(at + input.old_text.length));
    return { content: `Edited ${input.path} at line ${lineOf(text, at)}.` };
  },
});
