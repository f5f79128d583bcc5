import { Refused } from '../lib/index.js';
import { agentNameProblem, LEAD, didYouMean } from '../protocol/index.js';
import { memberNames, type TeamConfig, type TeamStore } from '../store/index.js';

/** The refusal for a name that no teammate of the team has, naming the nearest one. */
export function noSuchTeammate(name: string, team: TeamConfig | undefined, teamName: string): Refused {
  const hint = didYouMean(name, team ? memberNames(team).filter((m) => m !== LEAD) : []);
  return new Refused(`no teammate '${name}' in team '${teamName}'${hint ? `; ${hint}` : ''}`);
}

/** What only a running teammate can be sent (`what`): a clear refusal for a bad name, the lead, a stopped teammate or an unknown one. */
export async function requireRunningTeammate(name: string, what: string, isRunning: (name: string) => boolean, store: TeamStore): Promise<void> {
  const problem = agentNameProblem(name);
  if (problem) throw new Refused(problem);
  if (name === LEAD) throw new Refused(`${what} goes to a teammate; the lead hears the user at its own prompt`);
  if (isRunning(name)) return;
  const team = await store.roster.load();
  if (team && memberNames(team).includes(name)) throw new Refused(`${name} is not running`);
  throw noSuchTeammate(name, team, store.team);
}
