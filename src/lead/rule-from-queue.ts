import { parseRule, ruleSettles, showRule, type PermissionRule, type PermissionRules } from '../policy/index.js';
import type { RequestRecord } from '../protocol/index.js';
import { Refused, errorMessage } from '../lib/index.js';
import type { HumanDecision } from './decisions.js';
import { addProjectRule, loadProjectRules } from './project-settings.js';

export type RuleSaving = {
  home: string;
  decisions: { decide(requestId: string, decision: HumanDecision): Promise<RequestRecord>; pendingForHuman(): Promise<RequestRecord[]> };
};

/**
 * `a` on a permission request, then a rule for the project (or `permissions_add` from any
 * client): the rule is saved first, then the request it was made from is approved, then every
 * other pending command the rule covers (rule-settles.ts), each with a line of its own. A rule
 * that cannot be saved approves nothing; a request that cannot be approved leaves the rule and the others.
 */
export async function saveRule(text: string, network: boolean, requestId: string | undefined, to: RuleSaving): Promise<string> {
  const rule = parseRule(text);
  // Checked by the schema; a string here is the parser's refusal.
  if (typeof rule === 'string') throw new Refused(`invalid rule: ${rule}`);
  const { changed, file } = addProjectRule(to.home, network ? ['allow', 'network'] : 'allow', rule);
  const lines = [`${changed ? 'added' : 'already had'} ${network ? 'allow and network' : 'allow'} rule ${showRule(rule)} in ${file}`];
  if (requestId !== undefined) {
    try {
      const record = await to.decisions.decide(requestId, { approve: true });
      lines.push(`approved ${record.kind} request ${record.request_id} from ${record.from}`);
    } catch (error) {
      // The rule stays saved: say so, and why the request was not approved (decided meanwhile, say).
      lines.push(`request ${requestId} was not approved: ${errorMessage(error)}`);
    }
  }
  lines.push(...(await settleOthers(rule, network, loadProjectRules(to.home), to)));
  return lines.join('\n');
}

async function settleOthers(rule: PermissionRule, network: boolean, inForce: PermissionRules, to: RuleSaving): Promise<string[]> {
  const covered = (await to.decisions.pendingForHuman()).filter(
    (r) => r.kind === 'permission' && r.tool !== undefined && ruleSettles(rule, network, inForce, r.tool.name, r.tool.input),
  );
  const lines: string[] = [];
  for (const record of covered) {
    const note = `covered by the rule ${showRule(rule)}`;
    try {
      await to.decisions.decide(record.request_id, { approve: true, note });
      lines.push(`also approved permission request ${record.request_id} from ${record.from}: ${note}`);
    } catch (error) {
      // Decided meanwhile (its deadline, another client): it needs nothing more.
      lines.push(`permission request ${record.request_id} from ${record.from} was not settled: ${errorMessage(error)}`);
    }
  }
  return lines;
}
