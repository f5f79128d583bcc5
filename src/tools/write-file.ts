import * as z from 'zod';
import type { ToolIO } from './io.js';
import { defineTool } from './tool.js';

const Input = z.strictObject({
  path: z.string().min(1, 'path is empty').describe('File path, relative to the working directory. Missing directories are created.'),
  content: z.string().describe('The whole new content of the file.'),
});

export const writeFileTool = defineTool({
  name: 'write_file',
  description: 'Create a file, or replace its whole content, in the working directory. To change part of an existing file use edit_file.',
  input: Input,
  async run(input, io: Pick<ToolIO, 'files'>) {
    const { created } = await io.files.writeText(input.path, input.content);
    const bytes = Buffer.byteLength(input.content);
    return { content: `${created ? 'Created' : 'Replaced'} ${input.path} (${bytes} bytes).` };
  },
});
