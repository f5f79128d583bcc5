import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { LEAD_OPS, parseLeadOp } from '../../src/lead/ops.js';

/** The words a bad op is refused with, or 'ok'. */
const verdict = (raw: unknown): string => {
  const parsed = parseLeadOp(raw);
  return parsed.ok ? 'ok' : parsed.error;
};

describe('LeadOp: the one schema for the human\'s commands to the lead', () => {
  test('every op of the issue is there, and good ones pass as they are', () => {
    for (const op of ['decide', 'spawn', 'send', 'broadcast', 'interrupt', 'mode', 'compact', 'respawn', 'task_create', 'task_assign', 'task_cancel', 'diff', 'merge', 'discard', 'permissions_add', 'permissions_remove', 'shutdown', 'quit', 'prompt', 'tell']) {
      assert.ok(LEAD_OPS.includes(op as (typeof LEAD_OPS)[number]), op);
    }
    const good = [
      { op: 'decide', request_id: 'plan-1', approve: false, note: 'not yet' },
      { op: 'spawn', name: 'alice', role: 'coder', plan_mode: true, mode: 'accept-edits', worktree: true },
      { op: 'send', to: '*', text: 'hello all' },
      { op: 'compact' },
      { op: 'interrupt', name: 'lead' },
      { op: 'task_create', subject: 'Write the docs', blocked_by: ['1', '2'] },
      { op: 'task_assign', id: '7', owner: 'alice' },
      { op: 'permissions_add', rule: 'Bash(npm test:*)', network: true },
      { op: 'permissions_remove', rule: '3' },
      { op: 'quit', force: true },
    ];
    for (const op of good) {
      const parsed = parseLeadOp(op);
      assert.deepEqual(parsed, { ok: true, op }, JSON.stringify(op));
    }
  });

  test('a bad op is refused with words that say which op, which field and why', () => {
    const cases: [unknown, RegExp][] = [
      [null, /^no op; the ops: decide, spawn, /],
      [{ command: 'id' }, /^no op; the ops: /],
      [{ op: 'exec' }, /^unknown op 'exec'; the ops: decide, /],
      [{ op: 'spwan', name: 'alice' }, /^unknown op 'spwan' \(did you mean spawn\?\); the ops: /],
      [{ op: 'spawn', name: 'Alice!', role: 'coder' }, /^spawn: name: /],
      [{ op: 'spawn', name: 'alice', role: '' }, /^spawn: role: /],
      [{ op: 'spawn', name: 'alice', role: 'coder', mode: 'yolo' }, /^spawn: mode: /],
      [{ op: 'decide', request_id: 'plan-1' }, /^decide: approve: /],
      [{ op: 'tell', name: 'alice', text: '' }, /^tell: text: must not be empty$/],
      [{ op: 'prompt', text: '' }, /^prompt: text: must not be empty$/],
      [{ op: 'send', to: 'Bob Smith', text: 'hi' }, /^send: to: /],
      [{ op: 'task_assign', id: '#3', owner: 'alice' }, /^task_assign: id: a task id is a number such as 7$/],
      [{ op: 'task_create', subject: 'Docs', blocked_by: ['x'] }, /^task_create: blocked_by\.0: a task id is a number/],
      [{ op: 'permissions_add', rule: 'Frobnicate(x)' }, /^permissions_add: rule: invalid rule: /],
      [{ op: 'quit', force: 'yes' }, /^quit: force: /],
    ];
    for (const [raw, words] of cases) assert.match(verdict(raw), words, JSON.stringify(raw));
  });
});
