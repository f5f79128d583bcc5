import { isAbsolute, join, resolve } from 'node:path';
import { agentNameProblem } from '../protocol/names.js';

/** Where one team's state lives under the state root (default ./.teams). */
export type TeamPaths = {
  home: string;
  team: string;
  root: string;
  config: string;
  audit: string;
  requests: string;
  mailboxes: string;
  workspace: string;
  mailbox(agent: string): string;
};

/** Team names follow the agent-name rule: they become directory names. */
export function teamNameProblem(team: string): string | undefined {
  const problem = agentNameProblem(team);
  return problem?.replace(/agent name/g, 'team name');
}

export function teamPaths(home: string, team: string): TeamPaths {
  const problem = teamNameProblem(team);
  if (problem) throw new Error(problem);
  const absHome = isAbsolute(home) ? home : resolve(home);
  const root = join(absHome, team);
  return {
    home: absHome,
    team,
    root,
    config: join(root, 'config.json'),
    audit: join(root, 'audit.jsonl'),
    requests: join(root, 'requests.jsonl'),
    mailboxes: join(root, 'mailboxes'),
    workspace: join(root, 'workspace'),
    mailbox: (agent: string) => {
      const agentProblem = agentNameProblem(agent);
      if (agentProblem) throw new Error(agentProblem);
      return join(root, 'mailboxes', agent);
    },
  };
}
