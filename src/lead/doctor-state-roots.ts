import { existsSync } from 'node:fs';
import { readStateRootRegistry } from '../store/index.js';
import { stateRootsAround } from '../sandbox/index.js';
import { hiddenFromAgents, type TeamPaths } from '../team/index.js';

/**
 * What `teams doctor` and /doctor say about the state roots: the ones a command here would have hidden
 * (state-roots.ts), and the registry's health. A registry that is garbled, unreadable or
 * missing this team's root breaks nothing, but hides less: this is where the human hears of it.
 */
export function describeStateRoots(cwd: string, paths: TeamPaths): Array<[label: string, text: string]> {
  const own = hiddenFromAgents(paths);
  const { dirs } = stateRootsAround(cwd, own);
  // The team's own root is hidden even before it exists; listed once it does.
  const hidden = [...new Set([...own, ...dirs])].filter((dir) => existsSync(dir));
  const lines: Array<[string, string]> = [['state roots hidden', `${hidden.length} director${hidden.length === 1 ? 'y' : 'ies'} from a command here`]];
  for (const dir of hidden) lines.push(['', dir]);
  const registry = readStateRootRegistry();
  for (const problem of registry.problems) lines.push(['state root registry', `${registry.path}: line ${problem.line}: ${problem.reason} (skipped)`]);
  if (existsSync(paths.home) && !registry.roots.includes(paths.home)) {
    lines.push(['state root registry', `${paths.home} is not in ${registry.path} yet (a lead adds it when it starts): commands of other projects' teams do not hide it`]);
  }
  return lines;
}
