import { Option, type Command } from 'commander';
import { inertJson, inertText } from '../../lib/index.js';
import { parseRule, showRule, type PermissionRule } from '../../policy/index.js';
import {
  addProjectRule, listedRules, loadModeLayers, loadProjectRules, loadRuleLayers, removeListedRule, ruleListText, settingsFiles, SCOPES, startMode, type RuleKind, type SettingsScope,
} from '../../lead/index.js';
import type { ContextFor } from '../context.js';
import { UsageError } from '../errors.js';

/**
 * `teams permissions`, `teams allow|deny|ask <rule>`: the permission rules of the settings
 * layers (user, project, local, as in Claude Code); `--network` also lets the commands an allow
 * rule covers reach the network. A running lead reads the files at each call it decides, and
 * follows them: a change reaches its running teammates at once, as a signed rules_set.
 */
export function registerPermissionCommands(program: Command, contextFor: ContextFor): void {
  program
    .command('permissions')
    .description('list the allow, deny, ask and network rules of every settings layer, numbered')
    .option('--json', 'one JSON object')
    .option('--remove <n|rule>', 'remove rule number n (as listed), or this rule from every list and layer that holds it')
    .action((options: { json?: boolean; remove?: string }, command: Command) => {
      const { home } = contextFor(command).paths;
      if (options.remove !== undefined) {
        if (!/^\d+$/.test(options.remove)) ruleArgument(options.remove);
        process.stdout.write(inertText(`${removeListedRule(home, options.remove)}\n`));
        return;
      }
      if (!options.json) {
        process.stdout.write(inertText(`${ruleListText(home)}\n`));
        return;
      }
      const merged = loadProjectRules(home);
      const lists = Object.fromEntries((['allow', 'deny', 'ask', 'network'] as const).map((kind) => [kind, merged[kind].map(showRule)]));
      const rules = listedRules(loadRuleLayers(home)).map((r, i) => ({ number: i + 1, kind: r.kind, rule: r.text, scope: r.scope, file: r.file }));
      const files = Object.fromEntries(settingsFiles(home).map(({ scope, file }) => [scope, file]));
      const start = startMode(undefined, loadModeLayers(home));
      process.stdout.write(`${inertJson({ files, default_mode: { mode: start.mode, from: start.from ?? null, passed_over: start.notes }, ...lists, rules })}\n`);
    });
  const scope = () => new Option('--scope <scope>', 'which settings file: user (yours, every project), project (committed) or local (this checkout)').choices(SCOPES).default('project');
  program
    .command('allow <rule>')
    .description("add an allow rule, e.g. 'Bash(npm test:*)', 'Bash(git status)' or 'Edit(src/**)'")
    .option('--network', 'also let the commands it covers reach the network (a Bash rule only)')
    .addOption(scope())
    .action((text: string, options: { network?: boolean; scope: SettingsScope }, command: Command) => {
      const kinds: RuleKind[] = options.network ? ['allow', 'network'] : ['allow'];
      addRule(contextFor(command).paths.home, kinds, text, options.scope);
    });
  program
    .command('deny <rule>')
    .description("add a deny rule, e.g. 'Bash(curl:*)'")
    .addOption(scope())
    .action((text: string, options: { scope: SettingsScope }, command: Command) => addRule(contextFor(command).paths.home, ['deny'], text, options.scope));
  program
    .command('ask <rule>')
    .description("add an ask rule: calls it covers wait for a human even when an allow rule or the mode would let them run, e.g. 'Bash(git push:*)'")
    .addOption(scope())
    .action((text: string, options: { scope: SettingsScope }, command: Command) => addRule(contextFor(command).paths.home, ['ask'], text, options.scope));
}

function addRule(home: string, kinds: RuleKind[], text: string, scope: SettingsScope): void {
  const rule = ruleArgument(text);
  const { changed, file } = addProjectRule(home, kinds, rule, scope);
  const name = kinds.join(' and ');
  const where = scope === 'project' ? '' : ` (in ${file})`;
  const article = kinds.length > 1 || kinds[0] === 'allow' || kinds[0] === 'ask' ? 'an' : 'a';
  process.stdout.write(inertText(changed ? `${name} ${showRule(rule)}${where}\n` : `${showRule(rule)} is already ${article} ${name} rule${where}; nothing changed\n`));
}

function ruleArgument(text: string): PermissionRule {
  const rule = parseRule(text);
  if (typeof rule === 'string') throw new UsageError(`invalid rule: ${rule}`);
  return rule;
}
