import { after, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { tempHome } from '../helpers/temp.js';
import { addProjectRule, loadProjectHooks, loadProjectRules, loadProjectSandbox } from '../../src/lead/project-settings.js';
import { removeListedRule, ruleListText } from '../../src/lead/rule-list.js';
import { parseRule, showRule, type PermissionRule } from '../../src/policy/rules.js';

/** A state root and a user settings directory of its own, set for this process (the loaders read TEAMS_CONFIG_DIR). */
function layers(): { home: string; user: string } {
  const { home, cleanup } = tempHome('teams-layers-');
  after(cleanup);
  const user = join(home, 'user-config');
  mkdirSync(user, { recursive: true });
  process.env.TEAMS_CONFIG_DIR = user;
  return { home, user };
}

const write = (file: string, json: unknown) => writeFileSync(file, JSON.stringify(json));
const shown = (list: readonly PermissionRule[]) => list.map(showRule);
const rule = (text: string) => parseRule(text) as PermissionRule;

describe('settings in layers: user, project, local', () => {
  test("every layer's rules count, each once, the user's first", () => {
    const { home, user } = layers();
    write(join(user, 'settings.json'), { permissions: { allow: ['Bash(ls:*)'], deny: ['Bash(curl:*)'] } });
    write(join(home, 'settings.json'), { permissions: { allow: ['Bash(npm test:*)', 'Bash(ls:*)'], ask: ['Bash(git push:*)'] } });
    write(join(home, 'settings.local.json'), { permissions: { allow: ['Edit(src/**)'], network: ['Bash(npm ci)'] } });
    const rules = loadProjectRules(home);
    assert.deepEqual(shown(rules.allow), ['Bash(ls:*)', 'Bash(npm test:*)', 'Edit(src/**)']);
    assert.deepEqual(shown(rules.deny), ['Bash(curl:*)']);
    assert.deepEqual(shown(rules.ask), ['Bash(git push:*)']);
    assert.deepEqual(shown(rules.network), ['Bash(npm ci)']);
    const text = ruleListText(home);
    assert.match(text, / 1\. allow {3}Bash\(ls:\*\) {2}\(user\)\n {3}2\. allow {3}Bash\(npm test:\*\) {2}\(project\)\n {3}3\. allow {3}Bash\(ls:\*\) {2}\(project\)\n {3}4\. allow {3}Edit\(src\/\*\*\) {2}\(local\)\n {3}5\. deny/);
    assert.match(text, /user {4}.*user-config\/settings\.json/);
  });

  test('a removal by number takes that entry from its own layer; by text, from every layer that holds it', () => {
    const { home, user } = layers();
    write(join(user, 'settings.json'), { permissions: { allow: ['Bash(ls:*)'] } });
    write(join(home, 'settings.json'), { permissions: { allow: ['Bash(ls:*)', 'Bash(npm test:*)'] } });
    assert.match(removeListedRule(home, '2'), /removed allow rule Bash\(ls:\*\) from .*\/settings\.json$/);
    assert.deepEqual(JSON.parse(readFileSync(join(home, 'settings.json'), 'utf8')).permissions.allow, ['Bash(npm test:*)']);
    assert.deepEqual(JSON.parse(readFileSync(join(user, 'settings.json'), 'utf8')).permissions.allow, ['Bash(ls:*)'], 'the user layer keeps its own');
    write(join(home, 'settings.json'), { permissions: { allow: ['Bash(ls:*)'] } });
    assert.equal(removeListedRule(home, 'Bash(ls:*)').split('\n').length, 2, 'one line per file');
    assert.deepEqual(shown(loadProjectRules(home).allow), []);
    assert.throws(() => removeListedRule(home, '7'), /no rule number 7 \(there are 0 rules/);
    assert.equal(existsSync(join(home, 'settings.local.json')), false, 'a removal creates no file');
  });

  test('a rule saved to the local layer goes to settings.local.json, which the state root tells git to ignore', () => {
    const { home } = layers();
    const { file } = addProjectRule(home, 'ask', rule('Bash(git push:*)'), 'local');
    assert.equal(file, join(home, 'settings.local.json'));
    assert.deepEqual(JSON.parse(readFileSync(file, 'utf8')), { permissions: { allow: [], ask: ['Bash(git push:*)'], deny: [] } });
    assert.match(readFileSync(join(home, '.gitignore'), 'utf8'), /^settings\.local\.json$/m);
    addProjectRule(home, 'allow', rule('Bash(ls)'), 'local');
    assert.equal(readFileSync(join(home, '.gitignore'), 'utf8').match(/settings\.local\.json/g)?.length, 1, 'said once');
  });

  test('hooks of every layer run; the most specific layer that sets sandbox bounds wins', () => {
    const { home, user } = layers();
    const hook = (command: string) => ({ command });
    write(join(user, 'settings.json'), { hooks: { task_completed: [hook('echo user')] }, sandbox: { memory_mb: 1024 } });
    write(join(home, 'settings.json'), { hooks: { task_completed: [hook('echo project')], teammate_idle: [hook('echo idle')] } });
    write(join(home, 'settings.local.json'), { sandbox: { memory_mb: 2048 } });
    const hooks = loadProjectHooks(home);
    assert.deepEqual(hooks.task_completed?.map((h) => h.command), ['echo user', 'echo project']);
    assert.deepEqual(hooks.teammate_idle?.map((h) => h.command), ['echo idle']);
    assert.equal(loadProjectSandbox(home).memory_mb, 2048);
  });

  test('a malformed layer is an error naming its file and field, never "no rules"', () => {
    const { home, user } = layers();
    write(join(home, 'settings.json'), { permissions: { allow: ['Bash(ls)'] } });
    writeFileSync(join(user, 'settings.json'), '{"permissions": {"ask": ["Bash(ls"]}}');
    assert.throws(() => loadProjectRules(home), /user-config\/settings\.json: permissions\.ask\.0: unbalanced parentheses/);
    writeFileSync(join(home, 'settings.local.json'), '{ torn');
    writeFileSync(join(user, 'settings.json'), '{}');
    assert.throws(() => loadProjectRules(home), /settings\.local\.json: not JSON/);
  });
});
