import { z } from 'zod';
import type { ToolIO } from './io.js';
import { defineTool } from './tool.js';

export const readInboxTool = defineTool({
  name: 'read_inbox',
  description: 'Take the messages waiting in your inbox. Each is returned once; an empty inbox says so.',
  input: z.strictObject({}),
  async run(_input, io: Pick<ToolIO, 'team'>) {
    const notices = await io.team.readInbox();
    return { content: notices.length === 0 ? 'No new messages.' : notices.join('\n\n') };
  },
});
