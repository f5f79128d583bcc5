import { after, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync, writeFileSync } from 'node:fs';
import { killAll } from '../helpers/children.js';
import { runCli } from '../helpers/cli.js';
import { tempHome } from '../helpers/temp.js';
import { waitFor } from '../helpers/wait.js';
import { NO_RULES, parseRule, type PermissionRule } from '../../src/policy/rules.js';
import { loadProjectRules, settingsPath } from '../../src/lead/project-settings.js';
import { RulesSync, type RulesAsText } from '../../src/lead/rules-sync.js';

after(killAll);

const rule = (text: string): PermissionRule => {
  const parsed = parseRule(text);
  if (typeof parsed === 'string') throw new Error(parsed);
  return parsed;
};

/** A RulesSync over a real settings file, recording what it would send and the problems it reports. */
function syncOver(home: string) {
  const sent: { to: string; rules: RulesAsText }[] = [];
  const problems: string[] = [];
  const sync = new RulesSync(
    home,
    () => loadProjectRules(home),
    async (to, rules) => {
      sent.push({ to, rules });
    },
    (what, reason) => problems.push(`${what}: ${reason}`),
  );
  return { sync, sent, problems };
}

describe("the lead's copy of the project's rules in its running teammates", () => {
  test('a change written by `teams allow` in another process reaches each running teammate once; an unchanged write sends nothing', async (t) => {
    const { home, cleanup } = tempHome();
    t.after(cleanup);
    const { sync, sent, problems } = syncOver(home);
    const watch = await sync.watch();
    t.after(() => watch.close());
    await sync.handedOver('alice', NO_RULES);
    await sync.handedOver('bob', NO_RULES);
    assert.deepEqual(sent, [], 'they hold what the file says (no file: no rules)');

    const added = await runCli(home, ['allow', 'bash(npm test*)']);
    assert.equal(added.code, 0, added.stderr);
    const allow = { allow: ['Bash(npm test:*)'], deny: [], ask: [], network: [] };
    await waitFor(() => sent.length >= 2, 'the new rules to be sent to both teammates');
    assert.deepEqual(sent, [{ to: 'alice', rules: allow }, { to: 'bob', rules: allow }]);

    // The same rules written again (an editor's save): a hint, and nothing to send.
    writeFileSync(settingsPath(home), readFileSync(settingsPath(home), 'utf8'));
    const again = await runCli(home, ['allow', 'bash(npm test*)']);
    assert.match(again.stdout, /already an allow rule/);
    // bob has stopped: the next change goes to alice alone, and is the only send since.
    sync.forget('bob');
    const denied = await runCli(home, ['deny', 'bash(curl *)']);
    assert.equal(denied.code, 0, denied.stderr);
    await waitFor(() => sent.length >= 3, 'the deny rule to be sent');
    assert.deepEqual(sent.slice(2), [{ to: 'alice', rules: { allow: ['Bash(npm test:*)'], deny: ['Bash(curl:*)'], ask: [], network: [] } }]);
    await sync.sync();
    assert.equal(sent.length, 3, 'nothing sent twice');
    assert.deepEqual(problems, []);
  });

  test('a teammate handed rules read before a change gets the change as soon as it is handed over', async (t) => {
    const { home, cleanup } = tempHome();
    t.after(cleanup);
    const { sync, sent } = syncOver(home);
    const stale = sync.current();
    assert.equal((await runCli(home, ['deny', 'bash(curl *)'])).code, 0);
    // No watch here: only the look that handing over makes can have sent it.
    await sync.handedOver('alice', stale);
    assert.deepEqual(sent, [{ to: 'alice', rules: { allow: [], deny: ['Bash(curl:*)'], ask: [], network: [] } }]);
    await sync.handedOver('bob', sync.current());
    assert.equal(sent.length, 1, 'bob was handed the current rules: nothing to send him');
  });

  test('a teammate respawned after it was sent rules is sent the current ones again, after anything its last process left unread', async (t) => {
    const { home, cleanup } = tempHome();
    t.after(cleanup);
    const { sync, sent } = syncOver(home);
    await sync.handedOver('alice', NO_RULES);
    assert.equal((await runCli(home, ['deny', 'bash(curl *)'])).code, 0);
    await sync.sync();
    assert.equal(sent.length, 1);
    sync.forget('alice');
    await sync.handedOver('alice', sync.current());
    const current = { allow: [], deny: ['Bash(curl:*)'], ask: [], network: [] };
    assert.deepEqual(sent, [{ to: 'alice', rules: current }, { to: 'alice', rules: current }]);
    // Never sent anything, bob's respawn sends nothing.
    await sync.handedOver('bob', sync.current());
    sync.forget('bob');
    await sync.handedOver('bob', sync.current());
    assert.equal(sent.length, 2);
  });

  test('a malformed settings file is reported once and sends nothing; the teammates keep their rules until it reads again', async (t) => {
    const { home, cleanup } = tempHome();
    t.after(cleanup);
    const { sync, sent, problems } = syncOver(home);
    await sync.handedOver('alice', { allow: [rule('bash(npm test*)')], deny: [], ask: [], network: [] });
    assert.deepEqual(sent, [{ to: 'alice', rules: { allow: [], deny: [], ask: [], network: [] } }], 'no file: no rules');
    writeFileSync(settingsPath(home), JSON.stringify({ permissions: { allow: [], deny: ['bash(curl *)', 'launch_missiles'] } }));
    await sync.sync();
    await sync.sync();
    assert.equal(sent.length, 1, 'nothing sent from a malformed file');
    assert.equal(problems.length, 1, `reported once: ${problems.join(' | ')}`);
    assert.match(problems[0] ?? '', /^the permission rules were not sent to the teammates: .*settings\.json: .*permissions\.deny\.1: unknown tool 'launch_missiles'/);
    writeFileSync(settingsPath(home), JSON.stringify({ permissions: { allow: [], deny: ['bash(curl *)'] } }));
    await sync.sync();
    assert.deepEqual(sent.at(-1), { to: 'alice', rules: { allow: [], deny: ['Bash(curl:*)'], ask: [], network: [] } });
  });

  test('a send that fails is reported, and tried again at the next look', async (t) => {
    const { home, cleanup } = tempHome();
    t.after(cleanup);
    const problems: string[] = [];
    let failing = true;
    const sent: string[] = [];
    const sync = new RulesSync(
      home,
      () => loadProjectRules(home),
      async (to) => {
        if (failing) throw new Error('the mailbox is full');
        sent.push(to);
      },
      (what, reason) => problems.push(`${what}: ${reason}`),
    );
    await sync.handedOver('alice', { allow: [rule('bash')], deny: [], ask: [], network: [] });
    assert.deepEqual(problems, ['the permission rules were not sent to alice: the mailbox is full']);
    failing = false;
    await sync.sync();
    assert.deepEqual(sent, ['alice']);
  });
});
