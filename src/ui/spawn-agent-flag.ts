import { agentNameProblem } from '../protocol/index.js';

/** `/spawn … --agent <name>`: the agent definition to start a teammate as (.teams/agents/<name>.md). */
export const AGENT_FLAG = /(^|\s)--agent(?:(?:\s+|=)(?<agent>[^\s-]\S*)|=)?(?=\s|$)/;

/** `/spawn`'s --agent: the definition's name, or why it cannot be one; neither when not given. */
export function spawnAgentFlag(rest: string): { name?: string; error?: string } {
  const given = AGENT_FLAG.exec(rest);
  if (!given) return {};
  const name = given.groups?.agent;
  if (name === undefined) return { error: '/spawn: --agent needs the name of an agent definition (`teams agents` lists them)' };
  const problem = agentNameProblem(name);
  return problem === undefined ? { name } : { error: `/spawn: agent '${name}': ${problem}` };
}
