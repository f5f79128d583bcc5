import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdirSync, writeFileSync } from 'node:fs';
import { hookOutcome, NO_REASON_GIVEN } from '../../src/hooks/outcome.js';
import { loadProjectHooks, loadProjectRules, settingsPath } from '../../src/lead/project-settings.js';
import { hiddenFromAgents, teamPaths } from '../../src/team/paths.js';
import { tempHome } from '../helpers/temp.js';

const exited = (code: number | null, signal: NodeJS.Signals | null = null) => ({ kind: 'exited' as const, code, signal });

describe('a hook run: what its exit means', () => {
  test('exit 0 lets the event go on, whatever it wrote', () => {
    assert.deepEqual(hookOutcome('teammate_idle', exited(0), 'a warning'), { status: 'ok' });
    assert.deepEqual(hookOutcome('plan_submitted', exited(0), ''), { status: 'ok' });
  });

  test('exit 2 blocks teammate_idle and task_completed, with its stderr as the feedback', () => {
    assert.deepEqual(hookOutcome('teammate_idle', exited(2), '  run the tests first\n'), { status: 'blocked', feedback: 'run the tests first' });
    assert.deepEqual(hookOutcome('task_completed', exited(2), '3 failing\n'), { status: 'blocked', feedback: '3 failing' });
    assert.deepEqual(hookOutcome('task_completed', exited(2), ''), { status: 'blocked', feedback: NO_REASON_GIVEN });
  });

  test('exit 2 on a notify-only event blocks nothing: a problem that says so', () => {
    for (const event of ['plan_submitted', 'permission_requested', 'task_created'] as const) {
      const outcome = hookOutcome(event, exited(2), 'no\n');
      assert.equal(outcome.status, 'failed');
      assert.match(outcome.status === 'failed' ? outcome.reason : '', new RegExp(`exited 2, but ${event} cannot be blocked .*the event went on: no$`));
    }
  });

  test('any other exit, a signal, a timeout or a failed start is a failure, never a block', () => {
    assert.deepEqual(hookOutcome('teammate_idle', exited(1), 'first\nnpm ERR! missing script: test\n'), { status: 'failed', reason: 'exited 1: npm ERR! missing script: test' });
    assert.deepEqual(hookOutcome('task_completed', exited(127), ''), { status: 'failed', reason: 'exited 127' });
    assert.deepEqual(hookOutcome('teammate_idle', exited(null, 'SIGTERM'), ''), { status: 'failed', reason: 'was killed by SIGTERM' });
    assert.deepEqual(hookOutcome('teammate_idle', { kind: 'cancelled' }, ''), { status: 'failed', reason: 'the lead stopped while it ran; its process group was killed' });
    assert.deepEqual(hookOutcome('teammate_idle', { kind: 'timed_out', afterS: 60 }, ''), { status: 'failed', reason: 'timed out after 60 s; its process group was killed' });
    assert.deepEqual(hookOutcome('task_completed', { kind: 'spawn_failed', error: 'spawn /bin/sh ENOENT' }, ''), { status: 'failed', reason: 'could not be started: spawn /bin/sh ENOENT' });
  });
});

describe('hooks in the settings file', () => {
  const withSettings = (json: unknown, check: (home: string) => void) => {
    const { home, cleanup } = tempHome();
    try {
      mkdirSync(home, { recursive: true });
      writeFileSync(settingsPath(home), typeof json === 'string' ? json : JSON.stringify(json));
      check(home);
    } finally {
      cleanup();
    }
  };

  test('none without a file or a hooks section; the timeout defaults to 60 s', () => {
    const { home, cleanup } = tempHome();
    assert.deepEqual(loadProjectHooks(home), {});
    cleanup();
    withSettings({ permissions: { allow: ['Bash(ls)'] } }, (home) => assert.deepEqual(loadProjectHooks(home), {}));
    withSettings({ hooks: { task_completed: [{ command: 'npm test', timeout: 120, write: true }, { command: 'npm run lint' }] } }, (home) =>
      assert.deepEqual(loadProjectHooks(home), {
        task_completed: [
          { command: 'npm test', timeout: 120, write: true, network: false },
          { command: 'npm run lint', timeout: 60, write: false, network: false },
        ],
      }),
    );
  });

  test('a malformed hook is an error naming the file and the field', () => {
    const refused = (json: unknown, pattern: RegExp) =>
      withSettings(json, (home) => assert.throws(() => loadProjectHooks(home), (error: Error) => error.message.startsWith(`${settingsPath(home)}: `) && pattern.test(error.message)));
    refused({ hooks: { task_complete: [{ command: 'npm test' }] } }, /hooks: Unrecognized key: "task_complete"/);
    refused({ hooks: { teammate_idle: [{ comand: 'npm test' }] } }, /hooks\.teammate_idle\.0\.command: .*hooks\.teammate_idle\.0: Unrecognized key: "comand"/);
    refused({ hooks: { teammate_idle: [{ command: '  ' }] } }, /hooks\.teammate_idle\.0\.command: the command is empty/);
    refused({ hooks: { teammate_idle: [{ command: 'x', timeout: 0 }] } }, /hooks\.teammate_idle\.0\.timeout: the timeout must be a positive number of seconds/);
    refused({ hooks: { teammate_idle: { command: 'x' } } }, /hooks\.teammate_idle: /);
    refused('{"hooks": ', /not JSON/);
  });

  test("a broken hook does not cost the project its permission rules", () => {
    withSettings({ permissions: { deny: ['bash(rm *)'] }, hooks: { nope: [] } }, (home) => {
      assert.throws(() => loadProjectHooks(home));
      assert.equal(loadProjectRules(home).deny.length, 1);
    });
  });

  test('the settings file, hooks and all, is where no agent can reach: no agent can add a hook', () => {
    const paths = teamPaths('/tmp/some-project/.teams', 'default');
    assert.ok(hiddenFromAgents(paths).some((hidden) => settingsPath(paths.home).startsWith(`${hidden}/`)));
  });
});
