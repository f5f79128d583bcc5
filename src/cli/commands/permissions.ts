import type { Command } from 'commander';
import { inertJson, inertText } from '../../lib/index.js';
import { parseRule, showRule, type PermissionRule } from '../../policy/index.js';
import { addProjectRule, loadProjectRules, removeProjectRule, settingsPath, type RuleKind } from '../../lead/index.js';
import type { ContextFor } from '../context.js';
import { UsageError } from '../errors.js';

/**
 * `teams permissions`, `teams allow <rule> [--network]`, `teams deny <rule>`: the project's
 * permission rules in <home>/settings.json; `--network` also lets the commands the rule
 * covers reach the network. A running lead reads the file at each call it decides, and
 * follows it: a change reaches its running teammates at once, as a signed rules_set.
 */
export function registerPermissionCommands(program: Command, contextFor: ContextFor): void {
  program
    .command('permissions')
    .description("list the project's allow, deny and network rules (in <home>/settings.json)")
    .option('--json', 'one JSON object')
    .option('--remove <rule>', 'remove this rule from every list that holds it')
    .action((options: { json?: boolean; remove?: string }, command: Command) => {
      const { home } = contextFor(command).paths;
      if (options.remove !== undefined) {
        const rule = ruleArgument(options.remove);
        const { changed } = removeProjectRule(home, rule);
        process.stdout.write(inertText(changed ? `removed ${showRule(rule)}\n` : `no rule ${showRule(rule)}; nothing removed\n`));
        return;
      }
      const rules = loadProjectRules(home);
      const lists = { allow: rules.allow.map(showRule), deny: rules.deny.map(showRule), network: rules.network.map(showRule) };
      if (options.json) {
        process.stdout.write(`${inertJson({ file: settingsPath(home), ...lists })}\n`);
        return;
      }
      const show = (list: string[]) => (list.length === 0 ? '  (none)\n' : list.map((r) => `  ${r}\n`).join(''));
      const network = `network (bash commands these cover may reach the network):\n${show(lists.network)}`;
      process.stdout.write(inertText(`rules in ${settingsPath(home)}\nallow:\n${show(lists.allow)}deny:\n${show(lists.deny)}${network}`));
    });
  program
    .command('allow <rule>')
    .description("add a project allow rule, e.g. 'Bash(npm test:*)', 'Bash(git status)' or 'write_file(src/**)'")
    .option('--network', 'also let the commands it covers reach the network (a Bash rule only)')
    .action((text: string, options: { network?: boolean }, command: Command) => {
      const kinds: RuleKind[] = options.network ? ['allow', 'network'] : ['allow'];
      addRule(contextFor(command).paths.home, kinds, text);
    });
  program
    .command('deny <rule>')
    .description("add a project deny rule, e.g. 'Bash(curl:*)'")
    .action((text: string, _options: unknown, command: Command) => addRule(contextFor(command).paths.home, ['deny'], text));
}

function addRule(home: string, kinds: RuleKind[], text: string): void {
  const rule = ruleArgument(text);
  const { changed } = addProjectRule(home, kinds, rule);
  const name = kinds.join(' and ');
  process.stdout.write(inertText(changed ? `${name} ${showRule(rule)}\n` : `${showRule(rule)} is already ${kinds.length > 1 ? `an ${name}` : kinds[0] === 'allow' ? 'an allow' : 'a deny'} rule; nothing changed\n`));
}

function ruleArgument(text: string): PermissionRule {
  const rule = parseRule(text);
  if (typeof rule === 'string') throw new UsageError(`invalid rule: ${rule}`);
  return rule;
}
