import * as z from 'zod';
import { AgentName, semanticBoolean, PermissionMode } from '../protocol/index.js';
import type { ToolIO } from './io.js';
import type { LeadTeamIO } from './team-io.js';
import { defineTool } from './tool.js';
import { ModelId } from '../model/index.js';

const NOT_WITH_RESPAWN = 'not given with respawn: a respawned teammate keeps its role and model, and its conversation holds its task';
const FOR_A_NEW_ONE = 'required for a new teammate (or set respawn: true to restart one that crashed or was shut down)';

/**
 * Two ways in, one schema: a new teammate needs a role and a task; a respawn needs only the
 * name, and is refused anything else rather than ignore it. Each missing or extra field is
 * its own error, named by path, so the model can correct exactly that.
 */
const Input = z
  .strictObject({
    name: AgentName.optional().describe("A new, unique name: lowercase letters, digits, - and _. With respawn: the teammate to start again. Default with agent: the agent's name."),
    agent: AgentName.optional().describe(
      'An agent definition of the project (listed in your instructions) to start it as: it gives the role, its prompt, tools, model and mode; what you give here besides wins, within your own mode.',
    ),
    role: z.string().trim().min(1, 'role is empty').optional().describe("What the teammate is, e.g. 'tester' or 'frontend developer'. Required unless respawn or agent."),
    prompt: z.string().trim().min(1, 'prompt is empty').optional().describe('Its task: everything it needs to know to start, since it sees nothing of this conversation. Required unless respawn.'),
    plan_mode: semanticBoolean.optional().describe('Start in plan mode: it may only read until you approve a plan it submits. Default false.'),
    model: ModelId.optional().describe("Its model id, e.g. 'claude-haiku-4-5' for simple work. Default: your own model. A respawned teammate keeps its own."),
    permission_mode: PermissionMode.optional().describe(
      "Its permission mode: plan, default, accept-edits or bypass. Default: your own ('default' if you are in plan mode). Never more permissive than yours.",
    ),
    isolation: z
      .enum(['none', 'worktree'])
      .optional()
      .describe(
        "'worktree': it works in its own git worktree, on its own branch from your HEAD, so it cannot step on others' files; the human sees and merges its work (/diff, /merge). Needs a git repository. Default 'none': your directory.",
      ),
    host: AgentName.optional().describe("The host (another machine running `teams host`) to start it on. Default: your machine. Not with isolation 'worktree'."),
    respawn: semanticBoolean
      .optional()
      .describe('Start again a teammate that crashed or was shut down, with its whole earlier conversation; give only its name. Default false.'),
  })
  .transform((input, ctx) => {
    const issue = (path: string, message: string) => ctx.addIssue({ code: 'custom', path: [path], message });
    if (input.respawn === true) {
      if (input.role !== undefined) issue('role', NOT_WITH_RESPAWN);
      if (input.agent !== undefined) issue('agent', 'not given with respawn: a respawned teammate keeps the agent definition it was spawned as');
      if (input.name === undefined) issue('name', 'required with respawn: the teammate to start again');
      if (input.prompt !== undefined) issue('prompt', NOT_WITH_RESPAWN);
      if (input.plan_mode !== undefined) issue('plan_mode', NOT_WITH_RESPAWN);
      if (input.model !== undefined) issue('model', NOT_WITH_RESPAWN);
      if (input.permission_mode !== undefined) issue('permission_mode', 'not given with respawn: a respawned teammate keeps the mode it worked in');
      if (input.isolation !== undefined) issue('isolation', 'not given with respawn: a respawned teammate goes on in the worktree it had, if any');
      if (input.host !== undefined) issue('host', 'not given with respawn: a respawned teammate goes back to the host it ran on');
      if (input.name === undefined) return z.NEVER;
      return { respawn: true as const, name: input.name };
    }
    const name = input.name ?? input.agent;
    if (name === undefined) issue('name', `${FOR_A_NEW_ONE}; or give agent, whose name it then takes`);
    if (input.role === undefined && input.agent === undefined) issue('role', `${FOR_A_NEW_ONE}; or give agent, an agent definition that names the role`);
    if (input.prompt === undefined) issue('prompt', FOR_A_NEW_ONE);
    if (name === undefined || input.prompt === undefined || (input.role === undefined && input.agent === undefined)) return z.NEVER;
    return { respawn: false as const, name, role: input.role, agent: input.agent, prompt: input.prompt, planMode: input.plan_mode ?? false, model: input.model, permissionMode: input.permission_mode, isolation: input.isolation, host: input.host };
  });

export const spawnTeammateTool = defineTool({
  name: 'spawn_teammate',
  description:
    'Start a teammate: a separate agent process with its own model, working in the same directory. It reports back by message. With respawn: true, start one that crashed or was shut down again, with its conversation.',
  input: Input,
  async run(input, io: Pick<ToolIO<LeadTeamIO>, 'team'>) {
    if (input.respawn) {
      const { pid, cancelled, planMode } = await io.team.respawnTeammate(input.name);
      const told = cancelled.length === 0 ? 'none of its requests was cancelled' : `it was told these requests were cancelled: ${cancelled.join(', ')}`;
      // Kept in plan mode when it was started in it and no plan of its was approved.
      return { content: `Respawned ${input.name} (pid ${pid})${planMode ? ' in plan mode,' : ''} with its earlier conversation; ${told}.` };
    }
    const { name, role, agent, prompt, planMode, permissionMode } = input;
    // No asker: the lead's model is taken as asking, and refused a mode beyond the lead's (mode-grant.ts).
    const started = await io.team.spawnTeammate({
      name,
      ...(role === undefined ? {} : { role }),
      ...(agent === undefined ? {} : { agent }),
      prompt,
      planMode,
      ...(input.model === undefined ? {} : { model: input.model }),
      ...(permissionMode === undefined ? {} : { permissionMode }),
      ...(input.isolation === 'worktree' ? { isolation: 'worktree' as const } : {}),
      ...(input.host === undefined ? {} : { host: input.host }),
    });
    // The mode is said when asked for, or when an agent definition may have set it.
    const mode = permissionMode ?? (agent === undefined ? undefined : started.mode);
    const inPlan = planMode || mode === 'plan';
    const where = input.isolation === 'worktree' ? ' in its own git worktree' : input.host === undefined ? '' : ` on host ${input.host}`;
    const note = where + (inPlan ? ' in plan mode: it will submit a plan for approval before changing anything' : mode ? ` in ${mode} mode` : '');
    const as = agent === undefined ? '' : ` as agent '${agent}'`;
    return { content: `Spawned ${name}${as} (${started.role ?? role ?? agent}, ${started.model}, pid ${started.pid})${note}.` };
  },
});
