import * as z from 'zod';
import type { ToolIO } from './io.js';
import { defineTool } from './tool.js';

export const listTeammatesTool = defineTool({
  name: 'list_teammates',
  description: "List the team's members with their role and status.",
  input: z.strictObject({}),
  async run(_input, io: Pick<ToolIO, 'team'>) {
    const members = await io.team.listTeammates();
    if (members.length === 0) return { content: 'The team has no members yet.' };
    const lines = members.map((m) => `- ${m.name}${m.name === io.team.self ? ' (you)' : ''}: ${m.role}, ${m.status.replace('_', ' ')}`);
    return { content: lines.join('\n') };
  },
});
