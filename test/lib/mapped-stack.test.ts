import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { mappedStack } from '../../src/lib/mapped-stack.js';
import { resolveModelSettings } from '../../src/model/settings.js';

/** An error thrown by compiled code that has a source map beside it (tsc writes them to dist/). */
function compiledError(): unknown {
  try {
    resolveModelSettings({ model: '!not a model' }, {});
    return undefined;
  } catch (error) {
    return error;
  }
}

describe('mappedStack', () => {
  test('turns compiled positions into the source file and line they came from', () => {
    const error = compiledError();
    assert.ok(error instanceof Error);
    assert.match(error.stack ?? '', /dist\/src\/model\/settings\.js:\d+:\d+/);
    const mapped = mappedStack(error);
    assert.match(mapped, /^SettingsError: invalid model settings/);
    assert.match(mapped, /[/]src[/]model[/]settings\.ts:\d+:\d+/);
    assert.doesNotMatch(mapped, /dist\/src\/model\/settings\.js/);
  });

  test('leaves frames without a map as they are, and a thrown non-error as its text', () => {
    const error = new Error('plain');
    error.stack = 'Error: plain\n    at node:internal/x:1:2\n    at file:///nowhere/none.js:3:4';
    assert.equal(mappedStack(error), error.stack);
    assert.equal(mappedStack('just text'), 'just text');
  });
});
