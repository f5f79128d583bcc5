import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync } from 'node:fs';
import {
  childModelEnv,
  DEFAULT_MODEL,
  modelIdProblem,
  teammateModel,
  DEFAULT_OFFLINE_SCRIPT,
  resolveModelSettings,
  SettingsError,
  type ModelSettings,
} from '../../src/model/settings.js';
import { OFFLINE_MODEL } from '../../src/offline/model-id.js';
import { contextWindowOf, DEFAULT_CONTEXT_WINDOW } from '../../src/model/context-window.js';

const KEY = { ANTHROPIC_API_KEY: 'sk-test' };

describe('model settings', () => {
  test('no API key means the offline model', () => {
    const settings = resolveModelSettings({}, {});
    assert.equal(settings.offline, true);
    assert.equal(settings.offlineReason, 'no-api-key');
    assert.equal(settings.model, OFFLINE_MODEL);
    assert.equal(settings.apiKey, undefined);
    assert.equal(settings.offlineScript, DEFAULT_OFFLINE_SCRIPT);
    assert.ok(existsSync(DEFAULT_OFFLINE_SCRIPT), DEFAULT_OFFLINE_SCRIPT);
  });

  test('an empty key counts as none', () => {
    assert.equal(resolveModelSettings({}, { ANTHROPIC_API_KEY: '' }).offlineReason, 'no-api-key');
  });

  test('with a key: the default Sonnet, TEAMS_MODEL, and --model over TEAMS_MODEL', () => {
    assert.equal(DEFAULT_MODEL, 'claude-sonnet-5-5');
    const online = resolveModelSettings({}, { ...KEY, ANTHROPIC_BASE_URL: 'https://proxy.example/anthropic' });
    assert.deepEqual({ ...online, offlineScript: undefined }, {
      model: DEFAULT_MODEL,
      offline: false,
      offlineReason: undefined,
      apiKey: 'sk-test',
      baseURL: 'https://proxy.example/anthropic',
      offlineScript: undefined,
      offlineURL: undefined,
      contextWindow: undefined,
    });
    assert.equal(resolveModelSettings({}, { ...KEY, TEAMS_MODEL: 'claude-opus-5-5' }).model, 'claude-opus-5-5');
    assert.equal(resolveModelSettings({ model: 'claude-haiku-4-5' }, { ...KEY, TEAMS_MODEL: 'claude-opus-5-5' }).model, 'claude-haiku-4-5');
  });

  test('--offline, TEAMS_OFFLINE and naming the offline model all force offline, key or not', () => {
    const flag = resolveModelSettings({ offline: true, model: 'claude-opus-5-5' }, { ...KEY, ANTHROPIC_BASE_URL: 'https://proxy.example' });
    assert.deepEqual([flag.offline, flag.offlineReason, flag.model, flag.apiKey, flag.baseURL], [true, 'flag', OFFLINE_MODEL, undefined, undefined]);
    assert.equal(resolveModelSettings({}, { ...KEY, TEAMS_OFFLINE: '1' }).offlineReason, 'env');
    assert.equal(resolveModelSettings({}, { ...KEY, TEAMS_OFFLINE: 'true' }).offlineReason, 'env');
    assert.equal(resolveModelSettings({}, { ...KEY, TEAMS_OFFLINE: '0' }).offline, false);
    assert.equal(resolveModelSettings({ model: OFFLINE_MODEL }, KEY).offlineReason, 'model');
  });

  test('invalid input is refused, naming the variable or flag', () => {
    assert.throws(() => resolveModelSettings({}, { ...KEY, ANTHROPIC_BASE_URL: 'not a url' }), (error: Error) =>
      error instanceof SettingsError && /ANTHROPIC_BASE_URL: must be an http\(s\) URL/.test(error.message),
    );
    assert.throws(() => resolveModelSettings({}, { TEAMS_OFFLINE: 'maybe' }), /TEAMS_OFFLINE: must be 1, 0, true or false/);
    assert.throws(() => resolveModelSettings({}, { ...KEY, TEAMS_MODEL: 'sonnet please' }), /TEAMS_MODEL: must be a model id/);
    assert.throws(() => resolveModelSettings({ model: '' }, KEY), /--model: must be a model id/);
  });

  test('a child process given childModelEnv resolves the same settings', () => {
    const cases: ModelSettings[] = [
      resolveModelSettings({ model: 'claude-opus-5-5' }, { ...KEY, ANTHROPIC_BASE_URL: 'http://127.0.0.1:9/' }),
      resolveModelSettings({ offline: true, offlineScript: '/tmp/other.json' }, KEY),
      resolveModelSettings({}, {}),
      resolveModelSettings({ offline: true, contextWindow: '30000' }, {}),
    ];
    for (const parent of cases) {
      // The child inherits the parent's environment too, key included.
      const child = resolveModelSettings({}, { ...KEY, ...childModelEnv(parent) });
      // Only the reason differs: a child is offline because its parent said so.
      assert.deepEqual({ ...child, offlineReason: undefined }, { ...parent, offlineReason: undefined });
      assert.equal(child.offlineReason, parent.offline ? 'env' : undefined);
    }
  });

  test("a teammate's own model: online it runs the id it was given (as TEAMS_MODEL over the lead's), offline the offline model", () => {
    const online = resolveModelSettings({ model: 'claude-sonnet-5-5' }, KEY);
    assert.equal(teammateModel(online, 'claude-haiku-4-5'), 'claude-haiku-4-5');
    assert.equal(teammateModel(online, undefined), 'claude-sonnet-5-5', "the lead's by default");
    const child = resolveModelSettings({}, { ...KEY, ...childModelEnv(online), TEAMS_MODEL: teammateModel(online, 'claude-haiku-4-5') });
    assert.equal(child.model, 'claude-haiku-4-5');
    const offline = resolveModelSettings({ offline: true }, KEY);
    assert.equal(teammateModel(offline, 'claude-haiku-4-5'), OFFLINE_MODEL);
    assert.equal(resolveModelSettings({}, { ...KEY, ...childModelEnv(offline), TEAMS_MODEL: 'claude-haiku-4-5' }).model, OFFLINE_MODEL);
  });

  test('a model id is checked by the rule --model and TEAMS_MODEL use, with a message naming it', () => {
    assert.equal(modelIdProblem('claude-haiku-4-5-20251001'), undefined);
    assert.equal(modelIdProblem('us.anthropic.claude-sonnet-4-6:0'), undefined);
    assert.equal(modelIdProblem('haiku please'), "invalid model id 'haiku please': must be a model id such as claude-sonnet-5-5");
    assert.equal(modelIdProblem('-m'), "invalid model id '-m': must be a model id such as claude-sonnet-5-5");
    assert.equal(modelIdProblem('\u001b[2Jx')?.includes('\u001b'), false, 'quoted inert');
  });

  test('teammates share the lead\'s offline endpoint, and only a loopback one', () => {
    const lead = resolveModelSettings({ offline: true }, {});
    const env = childModelEnv(lead, 'http://127.0.0.1:41234');
    assert.equal(env.TEAMS_OFFLINE_URL, 'http://127.0.0.1:41234');
    assert.equal(resolveModelSettings({}, env).offlineURL, 'http://127.0.0.1:41234');
    assert.equal(childModelEnv(resolveModelSettings({}, KEY), 'http://127.0.0.1:1').TEAMS_OFFLINE_URL, undefined);
    assert.throws(() => resolveModelSettings({}, { ...env, TEAMS_OFFLINE_URL: 'http://10.0.0.1:80' }), /TEAMS_OFFLINE_URL: must be an http URL on 127\.0\.0\.1/);
  });

  test('the context window: the model\'s own, unless --context-window or TEAMS_CONTEXT_WINDOW says otherwise', () => {
    assert.equal(contextWindowOf('claude-sonnet-5-5'), 200_000);
    assert.equal(contextWindowOf('claude-haiku-4-5-20251001'), 200_000);
    assert.equal(contextWindowOf('some-future-model'), DEFAULT_CONTEXT_WINDOW);
    assert.equal(contextWindowOf(OFFLINE_MODEL, 30_000), 30_000);
    assert.equal(resolveModelSettings({}, {}).contextWindow, undefined);
    assert.equal(resolveModelSettings({}, { TEAMS_CONTEXT_WINDOW: '50000' }).contextWindow, 50_000);
    assert.equal(resolveModelSettings({ contextWindow: '30000' }, { TEAMS_CONTEXT_WINDOW: '50000' }).contextWindow, 30_000);
    assert.throws(() => resolveModelSettings({ contextWindow: '30k' }, {}), /--context-window: must be a whole number of tokens/);
    assert.throws(() => resolveModelSettings({ contextWindow: '100' }, {}), /--context-window: must be at least 4000 tokens/);
    assert.throws(() => resolveModelSettings({}, { TEAMS_CONTEXT_WINDOW: '-5' }), /TEAMS_CONTEXT_WINDOW: must be a whole number of tokens/);
    // Only an override travels to teammates: one on another model goes by that model's window.
    assert.equal(childModelEnv(resolveModelSettings({}, {})).TEAMS_CONTEXT_WINDOW, undefined);
    assert.equal(childModelEnv(resolveModelSettings({ contextWindow: '30000' }, {})).TEAMS_CONTEXT_WINDOW, '30000');
  });
});
