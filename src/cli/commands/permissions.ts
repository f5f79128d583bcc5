import type { Command } from 'commander';
import { inertJson, inertText } from '../../lib/terminal-text.js';
import { parseRule, showRule, type PermissionRule } from '../../policy/rules.js';
import { addProjectRule, loadProjectRules, removeProjectRule, settingsPath, type RuleKind } from '../../runtime/project-settings.js';
import type { ContextFor } from '../context.js';
import { UsageError } from '../errors.js';

/**
 * `teams permissions`, `teams allow <rule>`, `teams deny <rule>`: the project's permission
 * rules in <home>/settings.json. A running lead reads the file at each call it decides, and
 * follows it: a change reaches its running teammates at once, as a signed rules_set.
 */
export function registerPermissionCommands(program: Command, contextFor: ContextFor): void {
  program
    .command('permissions')
    .description("list the project's allow and deny rules (in <home>/settings.json)")
    .option('--json', 'one JSON object')
    .option('--remove <rule>', 'remove this rule from the allow or deny list')
    .action((options: { json?: boolean; remove?: string }, command: Command) => {
      const { home } = contextFor(command).paths;
      if (options.remove !== undefined) {
        const rule = ruleArgument(options.remove);
        const { changed } = removeProjectRule(home, rule);
        process.stdout.write(inertText(changed ? `removed ${showRule(rule)}\n` : `no rule ${showRule(rule)}; nothing removed\n`));
        return;
      }
      const rules = loadProjectRules(home);
      const lists = { allow: rules.allow.map(showRule), deny: rules.deny.map(showRule) };
      if (options.json) {
        process.stdout.write(`${inertJson({ file: settingsPath(home), ...lists })}\n`);
        return;
      }
      const show = (list: string[]) => (list.length === 0 ? '  (none)\n' : list.map((r) => `  ${r}\n`).join(''));
      process.stdout.write(inertText(`rules in ${settingsPath(home)}\nallow:\n${show(lists.allow)}deny:\n${show(lists.deny)}`));
    });
  for (const kind of ['allow', 'deny'] as const satisfies RuleKind[]) {
    program
      .command(`${kind} <rule>`)
      .description(`add a project ${kind} rule, e.g. ${kind === 'allow' ? "'bash(npm test*)' or 'write_file(src/**)'" : "'bash(curl *)'"}`)
      .action((text: string, _options: unknown, command: Command) => {
        const { home } = contextFor(command).paths;
        const rule = ruleArgument(text);
        const { changed } = addProjectRule(home, kind, rule);
        process.stdout.write(inertText(changed ? `${kind} ${showRule(rule)}\n` : `${showRule(rule)} is already ${kind === 'allow' ? 'an allow' : 'a deny'} rule; nothing changed\n`));
      });
  }
}

function ruleArgument(text: string): PermissionRule {
  const rule = parseRule(text);
  if (typeof rule === 'string') throw new UsageError(`invalid rule: ${rule}`);
  return rule;
}
