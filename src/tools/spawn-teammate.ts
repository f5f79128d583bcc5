import * as z from 'zod';
import { AgentName } from '../protocol/names.js';
import { semanticBoolean } from '../protocol/semantic-boolean.js';
import type { ToolIO } from './io.js';
import type { LeadTeamIO } from './team-io.js';
import { defineTool } from './tool.js';
import { ModelId } from '../model/settings.js';

const Input = z.strictObject({
  name: AgentName.describe('A new, unique name: lowercase letters, digits, - and _.'),
  role: z.string().trim().min(1, 'role is empty').describe("What the teammate is, e.g. 'tester' or 'frontend developer'."),
  prompt: z.string().trim().min(1, 'prompt is empty').describe('Its task: everything it needs to know to start, since it sees nothing of this conversation.'),
  plan_mode: semanticBoolean.optional().describe('Start in plan mode: it may only read until you approve a plan it submits. Default false.'),
  model: ModelId.optional().describe("Its model id, e.g. 'claude-haiku-4-5' for simple work. Default: your own model."),
});

export const spawnTeammateTool = defineTool({
  name: 'spawn_teammate',
  description: 'Start a teammate: a separate agent process with its own model, working in the same directory. It reports back by message.',
  input: Input,
  async run(input, io: Pick<ToolIO<LeadTeamIO>, 'team'>) {
    const planMode = input.plan_mode ?? false;
    const { pid, model } = await io.team.spawnTeammate({ name: input.name, role: input.role, prompt: input.prompt, planMode, ...(input.model === undefined ? {} : { model: input.model }) });
    const note = planMode ? ' in plan mode: it will submit a plan for approval before changing anything' : '';
    return { content: `Spawned ${input.name} (${input.role}, ${model}, pid ${pid})${note}.` };
  },
});
