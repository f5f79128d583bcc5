import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { planModeNote, planReviewNote, protocolRules, renderPrompt } from '../../src/agent/prompts.js';
import { atTeammate } from '../../src/protocol/at-teammate.js';
import { KINDS, type Envelope } from '../../src/protocol/messages.js';
import type { PlanReviewer, TeammateState } from '../../src/protocol/kinds/spec.js';
import { routeForLead } from '../../src/lead/routing.js';
import { respawnBrief } from '../../src/lead/respawn.js';
import { leadTools, teammateTools, toolSpecs } from '../../src/tools/toolsets.js';
import { SAMPLES, sample } from '../protocol/fixtures.js';

/**
 * Every text a model reads (its system prompt, the notices of protocol messages, the lead's
 * own notices to a teammate) names only tools that the role reading it holds, in the set-up
 * it reads it in: a notice that says "answer with X" when the reader has no X leaves the model
 * stuck, or inventing a call.
 */

const ALL_TOOLS = new Set([...leadTools({ reviewPlans: true }), ...teammateTools({ planMode: true })].map((tool) => tool.name));
const MESSAGE_TYPES = new Set<string>(KINDS.filter((kind) => kind.includes('_')));

/**
 * The tool names a text mentions: any name of a tool or of a protocol message type, and any
 * `snake_case(` call. The bracketed header of a notice ("[shutdown_request shutdown-1 from
 * lead]") names the message, not a tool, and is left out.
 */
function mentionedTools(text: string): string[] {
  const plain = text.replace(/\[[^\]\n]*\]/g, ' ');
  const words = new Set<string>();
  for (const match of plain.matchAll(/\b([a-z]+(?:_[a-z]+)+)\b(\()?/g)) {
    const word = match[1] ?? '';
    if (match[2] !== undefined || ALL_TOOLS.has(word) || MESSAGE_TYPES.has(word)) words.add(word);
  }
  return [...words];
}

function assertNamesOnly(text: string, tools: readonly { name: string }[], reader: string): void {
  const held = new Set(tools.map((tool) => tool.name));
  const missing = mentionedTools(text).filter((name) => !held.has(name));
  assert.deepEqual(missing, [], `${reader} reads a text naming tools it does not have (${missing.join(', ')}):\n${text}`);
}

const REVIEWERS: readonly PlanReviewer[] = ['human', 'lead'];

function leadPrompt(reviewer: PlanReviewer): string {
  return renderPrompt('lead.md', { team: 't', cwd: '/w', mode: 'default', teammates: '(none)', protocol_rules: protocolRules(), plan_review_note: planReviewNote(reviewer) });
}

function teammatePrompt(planMode: boolean): string {
  return renderPrompt('teammate.md', { name: 'alice', role: 'coder', team: 't', cwd: '/w', protocol_rules: protocolRules(), mode: 'default', plan_mode_note: planModeNote(planMode) });
}

const TEAMMATE_STATE: TeammateState = { mode: 'plan', planApproved: false, planRejections: 0, stopping: false };

/** One of every kind, and the variants whose wording differs (rejections, plan mode, a task to claim). */
const ENVELOPES: Envelope[] = [
  ...KINDS.map((kind) => SAMPLES[kind] as Envelope),
  sample('plan_approval_response', { approve: false, feedback: 'smaller steps' }),
  sample('permission_response', { approve: false, feedback: 'too broad' }),
  sample('finish_response', { approve: false, feedback: 'add tests' }),
  sample('shutdown_response', { approve: false, reason: 'mid-migration' }),
  sample('code_review_response', { approve: false, comments: 'rename it' }),
  sample('mode_set', { permission_mode: 'plan' }),
  sample('task_assignment', { claim: true }),
];

describe('every tool a prompt or notice names exists for the role that reads it', () => {
  for (const reviewer of REVIEWERS) {
    test(`the lead's system prompt (plans reviewed by the ${reviewer})`, () => {
      assertNamesOnly(leadPrompt(reviewer), leadTools({ reviewPlans: reviewer === 'lead' }), `the lead (reviewer ${reviewer})`);
    });
  }

  test("a teammate's system prompt, in plan mode and out of it (plan_approval_request only in plan mode)", () => {
    assertNamesOnly(teammatePrompt(false), teammateTools({ planMode: false }), 'a teammate outside plan mode');
    assertNamesOnly(teammatePrompt(true), teammateTools({ planMode: true }), 'a teammate in plan mode');
    assert.ok(mentionedTools(teammatePrompt(true)).includes('plan_approval_request'), 'in plan mode it is told how to submit its plan');
  });

  for (const reviewer of REVIEWERS) {
    test(`every notice the lead's model hears (plans reviewed by the ${reviewer})`, () => {
      for (const envelope of ENVELOPES.filter((e) => e.to === 'lead')) {
        const { notice } = routeForLead(envelope, reviewer);
        if (notice !== undefined) assertNamesOnly(notice, leadTools({ reviewPlans: reviewer === 'lead' }), `the lead, hearing ${envelope.type}`);
      }
    });
  }

  test("every notice a teammate's model hears, and the lead's respawn brief", () => {
    for (const envelope of ENVELOPES.filter((e) => e.to !== 'lead')) {
      const { notice } = atTeammate(envelope, TEAMMATE_STATE);
      if (notice !== undefined) assertNamesOnly(notice, teammateTools({ planMode: true }), `a teammate, hearing ${envelope.type}`);
    }
    for (const own of [undefined, '4']) assertNamesOnly(respawnBrief(['plan-1'], own).description, teammateTools({ planMode: false }), 'a respawned teammate');
  });

  test('a task assignment names the exact call that closes the task, with its id', () => {
    const { notice } = atTeammate(sample('task_assignment', { task_id: '7' }), TEAMMATE_STATE);
    assert.match(notice ?? '', /task_update\(task_id="7", status="completed", result="[^"]*"\)/);
  });

  test('the checker catches a tool the reader lacks', () => {
    assert.throws(() => assertNamesOnly('Answer with finish_response(request_id="f-1")', leadTools({ reviewPlans: true }), 'the lead'), /finish_response/);
    assert.throws(() => assertNamesOnly(teammatePrompt(true), teammateTools({ planMode: false }), 'a teammate'), /plan_approval_request/);
  });
});

describe('who decides what, and no inbox to read', () => {
  test('the prompts say the human decides plans, permissions and finish requests, and a teammate answers a shutdown request itself', () => {
    const mate = teammatePrompt(false);
    assert.match(mate, /human [^.]*decides your plans, permission requests and requests to finish/);
    assert.match(mate, /A shutdown request from the lead is yours to answer/);
    assert.doesNotMatch(`${mate}\n${leadPrompt('human')}`, /decides[^.]*shutdowns/);
    assert.match(leadPrompt('human'), /The human decides teammates' plans, permission requests and requests to finish/);
  });

  test('no prompt, notice or tool description sends a model to an inbox', () => {
    const texts = [
      ...REVIEWERS.map(leadPrompt),
      teammatePrompt(true),
      ...ENVELOPES.map((e) => (e.to === 'lead' ? routeForLead(e, 'lead').notice : atTeammate(e, TEAMMATE_STATE).notice) ?? ''),
      JSON.stringify(toolSpecs(leadTools({ reviewPlans: true }))),
      JSON.stringify(toolSpecs(teammateTools({ planMode: true }))),
    ];
    for (const text of texts) assert.doesNotMatch(text, /inbox/i, text);
  });
});
