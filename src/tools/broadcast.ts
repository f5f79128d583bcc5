import * as z from 'zod';
import type { ToolIO } from './io.js';
import { defineTool } from './tool.js';

const Input = z.strictObject({
  content: z.string().min(1, 'content is empty').describe('The message text.'),
});

export const broadcastTool = defineTool({
  name: 'broadcast',
  description: 'Send one message to every other team member. Use it only for what everyone needs to know; otherwise use send_message.',
  input: Input,
  async run(input, io: Pick<ToolIO, 'team'>) {
    const { recipients } = await io.team.broadcast(input.content);
    return { content: `Broadcast sent to ${recipients.join(', ')}.` };
  },
});
