import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { AgentName, BROADCAST, LEAD, Recipient, agentNameProblem } from '../../src/protocol/names.js';

describe('agent names', () => {
  test('the lead and broadcast names', () => {
    assert.equal(LEAD, 'lead');
    assert.equal(BROADCAST, '*');
    assert.equal(agentNameProblem(LEAD), undefined);
  });

  for (const name of ['a', 'alice', 'bob-2', 'qa_bot', 'x9', 'a'.repeat(32)]) {
    test(`'${name}' is valid`, () => {
      assert.equal(agentNameProblem(name), undefined);
      assert.ok(AgentName.safeParse(name).success);
    });
  }

  const invalid: [string, string, RegExp][] = [
    ['empty', '', /^agent name is empty$/],
    ['too long', 'a'.repeat(33), /is longer than 32 characters/],
    ['uppercase', 'Alice', /must match .* \(lowercase letter first/],
    ['leading digit', '1bot', /must match/],
    ['leading dash', '-bot', /must match/],
    ['leading underscore', '_bot', /must match/],
    ['slash', 'team/alice', /may not contain '\/', '\\' or '\.'/],
    ['backslash', 'a\\b', /may not contain/],
    ['dot', 'alice.v2', /may not contain/],
    ['dot-dot', '..', /may not contain/],
    ['space', 'al ice', /must match/],
    ['non-ASCII', 'élise', /must match/],
    ['star', '*', /must match/],
    // Quoted escaped: an error naming it must not break the line or reach the terminal raw.
    ['newline', 'a\nb', /^agent name 'a\\nb' must match/],
    ['escape sequence', 'x\u001b[2J', /^agent name 'x\\x1b\[2J' must match/],
    ['long with a control', `${'a'.repeat(31)}\u009b${'b'.repeat(5)}`, /^agent name 'a{31}\\x9b…' is longer/],
    ['control and slash', 'a/\u0007', /^agent name 'a\/\\x07' may not contain/],
  ];
  for (const [what, name, message] of invalid) {
    test(`${what} is refused`, () => {
      assert.match(agentNameProblem(name) ?? '', message);
      const result = AgentName.safeParse(name);
      assert.equal(result.success, false);
      assert.equal(result.error?.issues[0]?.message, agentNameProblem(name));
    });
  }

  test('a recipient is an agent name or "*"', () => {
    assert.ok(Recipient.safeParse('*').success);
    assert.ok(Recipient.safeParse('alice').success);
    assert.equal(Recipient.safeParse('**').success, false);
    assert.equal(Recipient.safeParse('').success, false);
  });
});
