import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { didYouMean, editDistance, memberHint, suggestName } from '../../src/protocol/suggest.js';

describe('editDistance', () => {
  const cases: [string, string, number][] = [
    ['', '', 0],
    ['', 'abc', 3],
    ['abc', '', 3],
    ['alice', 'alice', 0],
    ['alcie', 'alice', 1],
    ['alic', 'alice', 1],
    ['alicee', 'alice', 1],
    ['alixe', 'alice', 1],
    ['bob', 'rob', 1],
    ['kitten', 'sitting', 3],
    ['ab', 'ba', 1],
  ];
  for (const [a, b, expected] of cases) {
    test(`${JSON.stringify(a)} ↔ ${JSON.stringify(b)} = ${expected}`, () => {
      assert.equal(editDistance(a, b), expected);
      assert.equal(editDistance(b, a), expected);
    });
  }
});

describe('suggestName', () => {
  const members = ['lead', 'alice', 'bob', 'charlie'];

  test('suggests the member a typo most likely meant', () => {
    assert.equal(suggestName('alcie', members), 'alice');
    assert.equal(suggestName('leed', members), 'lead');
    assert.equal(suggestName('charles', members), 'charlie');
  });

  test('ignores case', () => {
    assert.equal(suggestName('Alice', members), 'alice');
  });

  test('suggests nothing for names that are not near', () => {
    assert.equal(suggestName('zed', members), undefined);
    assert.equal(suggestName('x', members), undefined);
    assert.equal(suggestName('alice', []), undefined);
  });

  test('prefers the closest, then the first listed', () => {
    assert.equal(suggestName('alicee', ['alicexx', 'alice']), 'alice');
    assert.equal(suggestName('ab', ['ac', 'ad']), 'ac');
  });
});

describe('didYouMean and memberHint: the one wording of a suggestion', () => {
  test('a close name is offered, quoted as the caller shows it', () => {
    assert.equal(didYouMean('alcie', ['lead', 'alice']), "did you mean 'alice'?");
    assert.equal(didYouMean('spwan', ['spawn', 'send'], (name) => `/${name}`), 'did you mean /spawn?');
    assert.equal(didYouMean('zed', ['lead', 'alice']), undefined);
  });

  test('after "no member named …": the closest member, else the roster', () => {
    assert.equal(memberHint('alcie', ['lead', 'alice']), " (did you mean 'alice'?)");
    assert.equal(memberHint('zed', ['lead', 'alice']), ' (members: lead, alice)');
  });
});
