import * as z from 'zod';
import { AgentName } from '../protocol/index.js';
import type { ToolIO } from './io.js';
import { defineTool } from './tool.js';

const Input = z.strictObject({
  to: AgentName.describe("The member's name, e.g. 'lead' or a teammate's name."),
  content: z.string().min(1, 'content is empty').describe('The message text.'),
});

export const sendMessageTool = defineTool({
  name: 'send_message',
  description: 'Send a message to one team member. They read it as a notice; replies reach you the same way.',
  input: Input,
  async run(input, io: Pick<ToolIO, 'team'>) {
    await io.team.sendMessage(input.to, input.content);
    return { content: `Message sent to ${input.to}.` };
  },
});
