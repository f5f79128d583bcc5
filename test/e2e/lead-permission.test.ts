import { after, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { killAll } from '../helpers/children.js';
import { TeamSession } from './session.js';

after(killAll);

/** The lead runs a risky command itself instead of delegating it. */
const LEAD_CLEARS_THE_CACHE = [
  {
    name: 'lead: clear the cache itself',
    when: { agent: 'lead', turn: 1 },
    reply: { text: 'I will clear it myself.', tool_uses: [{ name: 'bash', input: { command: 'rm -rf build/cache' } }] },
  },
  { name: 'lead: told no', when: { agent: 'lead', after_tool: 'bash', last: 'Permission denied' }, reply: { text: 'The human said no; the cache stays.' } },
  { name: 'lead: done', when: { agent: 'lead', after_tool: 'bash' }, reply: { text: 'The cache is cleared.' } },
];

async function startWithCache(options: { deadlinesMs?: { permission: number } } = {}): Promise<{ session: TeamSession; cache: string }> {
  const session = await TeamSession.start({ prompt: 'Clear the build cache yourself', extraRules: LEAD_CLEARS_THE_CACHE, ...options });
  const cache = join(session.paths.workspace, 'build', 'cache');
  mkdirSync(cache, { recursive: true });
  writeFileSync(join(cache, 'stale.o'), 'x');
  return { session, cache };
}

describe('the lead\'s own risky commands wait for the human, like a teammate\'s', () => {
  test('approved: the lead waits in awaiting_approval, then runs it', async (t) => {
    const { session, cache } = await startWithCache();
    t.after(() => session.cleanup());
    const request = await session.pending('permission');
    assert.equal(request.from, 'lead');
    assert.equal(request.to, 'lead');
    assert.match(request.summary, /^bash \{"command":"rm -rf build\/cache"\} \(.*recursive delete/);
    await session.memberStatus('lead', 'awaiting_approval');
    assert.equal(existsSync(cache), true, 'nothing ran before the decision');
    const approved = await session.cli(['approve', request.request_id]);
    assert.equal(approved.code, 0, approved.stderr);
    assert.equal((await session.exited()).code, 0, session.lead.stderr());
    assert.equal(existsSync(cache), false, 'the approved delete ran');
    assert.equal((await session.requests()).find((r) => r.request_id === request.request_id)?.state, 'approved');
    assert.match(session.lead.stdout(), /The cache is cleared\./);
  });

  test('rejected with a reason: the call never runs and the lead\'s model hears why', async (t) => {
    const { session, cache } = await startWithCache();
    t.after(() => session.cleanup());
    const request = await session.pending('permission');
    const rejected = await session.cli(['reject', request.request_id, '--reason', 'not today']);
    assert.equal(rejected.code, 0, rejected.stderr);
    assert.equal((await session.exited()).code, 0, session.lead.stderr());
    assert.equal(existsSync(cache), true, 'the denied delete never ran');
    const output = session.lead.stdout();
    assert.match(output, /Permission denied: not today/);
    assert.match(output, /The human said no; the cache stays\./);
  });

  test('nobody answers: the deadline denies it, and nothing is mailed to the lead for it', async (t) => {
    const { session, cache } = await startWithCache({ deadlinesMs: { permission: 400 } });
    t.after(() => session.cleanup());
    const request = await session.pending('permission');
    assert.equal((await session.exited()).code, 0, session.lead.stderr());
    assert.equal(existsSync(cache), true);
    assert.equal((await session.requests()).find((r) => r.request_id === request.request_id)?.state, 'expired');
    assert.match(session.lead.stdout(), /The human said no; the cache stays\./);
    const mailed = (await session.audit()).filter((e) => e.event === 'message' && 'request_id' in e && e.request_id === request.request_id);
    assert.deepEqual(mailed, []);
  });
});
