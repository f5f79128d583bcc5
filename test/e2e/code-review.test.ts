import { after, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { killAll } from '../helpers/children.js';
import { waitFor } from '../helpers/wait.js';
import { TeamSession } from './session.js';

after(killAll);

/**
 * The lead starts alice and bob without plan mode; alice asks bob to review notes.md. What bob
 * does with the request is each test's own rule, put before these.
 */
const TEAM_OF_TWO = [
  {
    name: 'lead: start a writer and a reviewer',
    when: { agent: 'lead', turn: 1 },
    reply: {
      tool_uses: [
        { name: 'spawn_teammate', input: { name: 'bob', role: 'reviewer', prompt: 'Review what your teammates send you.' } },
        { name: 'spawn_teammate', input: { name: 'alice', role: 'writer', prompt: 'Get notes.md reviewed by bob.' } },
      ],
    },
  },
  {
    name: 'alice: ask bob for a review',
    when: { agent: 'alice', turn: 1 },
    reply: { tool_uses: [{ name: 'code_review_request', input: { to: 'bob', subject: 'notes.md wording', files: ['notes.md'], diff: '+# Notes\n+Build cache: keep it.' } }] },
  },
  { name: 'alice: wait for the review', when: { agent: 'alice', after_tool: 'code_review_request' }, reply: { text: "Waiting for bob's review." } },
  {
    name: 'alice: report the review to the lead',
    when: { agent: 'alice', last: '\\[code_review_response [^\\s\\]]+ from bob\\] bob (?<verdict>approved your change|requests changes): (?<comments>[^\\n]*)' },
    reply: { tool_uses: [{ name: 'send_message', input: { to: 'lead', content: 'Report: bob {{last.verdict}}: {{last.comments}}' } }] },
  },
  {
    name: 'alice: go on without the review',
    when: { agent: 'alice', last: 'From lead: No review came: (?<why>[^\\n]*)' },
    reply: { tool_uses: [{ name: 'send_message', input: { to: 'lead', content: 'Report: no review came ({{last.why}}); going on without it.' } }] },
  },
];

/** Once the teammates are up: bob's first turn when it only has its task. */
const BOB_WAITS = { name: 'bob: wait for work', when: { agent: 'bob', turn: 1 }, reply: { text: 'Ready to review.' } };

describe('code review between teammates, end to end', () => {
  test('alice asks bob for a review, bob approves with comments, and alice acts on the answer', async (t) => {
    const session = await TeamSession.start({
      prompt: 'Get the notes reviewed',
      extraRules: [
        {
          name: 'bob: approve the review',
          when: { agent: 'bob', last: '\\[code_review_request (?<id>[^\\s\\]]+) from alice\\]' },
          reply: { tool_uses: [{ name: 'code_review_response', input: { request_id: '{{last.id}}', approve: true, comments: 'Reads well; ship it.' } }] },
        },
        { name: 'bob: review sent', when: { agent: 'bob', after_tool: 'code_review_response' }, reply: { text: 'Review sent.' } },
        BOB_WAITS,
        ...TEAM_OF_TWO,
      ],
    });
    t.after(() => session.cleanup());
    assert.equal((await session.exited()).code, 0, session.lead.stderr());

    const review = (await session.requests()).find((r) => r.kind === 'review');
    assert.ok(review, 'the review request is in the journal');
    assert.deepEqual([review.from, review.to, review.state, review.note], ['alice', 'bob', 'approved', 'Reads well; ship it.']);
    assert.match(review.summary, /^notes\.md wording \(files: notes\.md; a diff of 2 lines\)$/);
    // Both messages went teammate to teammate, signed by their senders, and were accepted.
    const messages = (await session.audit()).flatMap((e) => (e.event === 'message' ? [e] : []));
    assert.ok(messages.some((e) => e.type === 'code_review_request' && e.from === 'alice' && e.to === 'bob'));
    assert.ok(messages.some((e) => e.type === 'code_review_response' && e.from === 'bob' && e.to === 'alice'));
    assert.ok(messages.some((e) => e.from === 'alice' && e.to === 'lead' && e.summary.includes('Report: bob approved your change: Reads well; ship it.')), 'alice acted on the answer');
    assert.equal((await session.audit()).filter((e) => e.event === 'problem').length, 0, 'nothing was refused or set aside');
    // The lead's events (the REPL's transcript, teams run) show the review open and close.
    const shown = session.events().flatMap((e) => (e.type === 'request' ? [e.record as { kind: string; state: string }] : []));
    assert.deepEqual(shown.filter((r) => r.kind === 'review').map((r) => r.state), ['pending', 'approved']);
    const listed = await session.cli(['requests']);
    assert.match(listed.stdout, new RegExp(`${review.request_id}\\s+review\\s+alice\\s+bob\\s+approved`));
  });

  test('no review within the deadline: the request expires and alice is told no review came', async (t) => {
    const session = await TeamSession.start({
      prompt: 'Get the notes reviewed',
      deadlinesMs: { review: 2_000 },
      extraRules: [
        { name: 'bob: put the review off', when: { agent: 'bob', last: '\\[code_review_request ' }, reply: { text: 'I will look at it later.' } },
        BOB_WAITS,
        ...TEAM_OF_TWO,
      ],
    });
    t.after(() => session.cleanup());
    const review = await session.pending('review');
    assert.deepEqual([review.from, review.to], ['alice', 'bob']);
    assert.equal(Date.parse(review.deadline_at) - Date.parse(review.created_at), 2_000);
    const expired = await waitFor(async () => (await session.requests()).find((r) => r.request_id === review.request_id && r.state === 'expired'), 'the review to expire');
    assert.match(expired.note ?? '', /^no review within 2 s; alice was told$/);
    assert.equal((await session.exited()).code, 0, session.lead.stderr());
    const messages = (await session.audit()).flatMap((e) => (e.event === 'message' ? [e] : []));
    assert.ok(messages.some((e) => e.from === 'lead' && e.to === 'alice' && /^No review came: bob did not answer/.test(e.summary)), 'alice was told');
    assert.ok(!messages.some((e) => e.type === 'code_review_response'), 'nothing was sent in bob\'s name');
    assert.ok(messages.some((e) => e.from === 'alice' && e.summary.startsWith('Report: no review came')), 'alice went on without it');
  });
});
