import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { modeGrantProblem, morePermissive } from '../../src/policy/mode-grant.js';

describe('modeGrantProblem', () => {
  it('lets the lead model give its own mode or less', () => {
    assert.equal(modeGrantProblem('accept-edits', 'accept-edits', 'model'), undefined);
    assert.equal(modeGrantProblem('plan', 'accept-edits', 'model'), undefined);
    assert.equal(modeGrantProblem('default', 'bypass', 'model'), undefined);
  });

  it('refuses the lead model a mode more permissive than the lead, naming both', () => {
    assert.match(modeGrantProblem('bypass', 'default', 'model') ?? '', /'bypass' is more permissive than the lead's own \('default'\).*human/);
    assert.match(modeGrantProblem('accept-edits', 'default', 'model') ?? '', /more permissive/);
  });

  it('bounds a lead in plan mode as its teammates start: default', () => {
    assert.equal(modeGrantProblem('default', 'plan', 'model'), undefined);
    assert.match(modeGrantProblem('accept-edits', 'plan', 'model') ?? '', /\('default'\)/);
  });

  it("takes the human's request as a grant, beyond the lead's mode", () => {
    assert.equal(modeGrantProblem('bypass', 'default', 'human'), undefined);
    assert.equal(modeGrantProblem('accept-edits', 'plan', 'human'), undefined);
  });

  it('orders the modes plan < default < accept-edits < bypass', () => {
    assert.ok(morePermissive('default', 'plan'));
    assert.ok(morePermissive('accept-edits', 'default'));
    assert.ok(morePermissive('bypass', 'accept-edits'));
    assert.ok(!morePermissive('plan', 'plan'));
  });
});
