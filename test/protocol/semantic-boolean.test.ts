import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import * as z from 'zod';
import { semanticBoolean } from '../../src/protocol/semantic-boolean.js';

describe('semanticBoolean', () => {
  for (const [input, output] of [[true, true], [false, false], ['true', true], ['false', false]] as const) {
    test(`${JSON.stringify(input)} → ${output}`, () => {
      assert.equal(semanticBoolean.parse(input), output);
    });
  }

  for (const input of ['yes', 'no', 'TRUE', 'False', ' true', '', '1', 1, 0, null, undefined, {}]) {
    test(`${JSON.stringify(input) ?? 'undefined'} is refused`, () => {
      const result = semanticBoolean.safeParse(input);
      assert.equal(result.success, false);
      assert.equal(result.error?.issues[0]?.message, 'expected true or false');
    });
  }

  test('works as a field, optional or not', () => {
    const Input = z.strictObject({ approve: semanticBoolean, notify: semanticBoolean.optional() });
    assert.deepEqual(Input.parse({ approve: 'false' }), { approve: false });
    assert.deepEqual(Input.parse({ approve: true, notify: 'true' }), { approve: true, notify: true });
  });

  test('its JSON schema asks models for a plain boolean', () => {
    const Input = z.object({ approve: semanticBoolean });
    for (const io of ['input', 'output'] as const) {
      const schema = z.toJSONSchema(Input, { io }) as { properties: Record<string, unknown> };
      assert.deepEqual(schema.properties.approve, { type: 'boolean' });
    }
  });
});
