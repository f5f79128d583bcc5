import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { createEventPrinter } from '../../src/cli/print-events.js';
import { jsonSink } from '../../src/cli/json-output.js';
import { formatAudit, formatMembers, formatMessage, formatRequests } from '../../src/present/format.js';
import type { LeadEvent } from '../../src/lead/events.js';
import type { Envelope, Kind } from '../../src/protocol/messages.js';
import { ZERO_USAGE } from '../../src/model/usage.js';
import { record, sample, SAMPLES } from '../protocol/fixtures.js';
import { assertInert, HOSTILE, HOSTILE_SHOWN } from '../helpers/hostile.js';

/** Routing fields keep their (validated) values; every other text an agent chose is hostile. */
const KEEP = new Set(['type', 'id', 'from', 'to', 'timestamp', 'request_id', 'status', 'approve', 'permission_mode']);

function hostile(kind: Kind): Envelope {
  const overrides: Record<string, unknown> = {};
  for (const [field, value] of Object.entries(SAMPLES[kind])) {
    if (KEEP.has(field)) continue;
    if (typeof value === 'string') overrides[field] = HOSTILE;
    else if (field === 'tool_input') overrides[field] = { command: HOSTILE };
  }
  // A refusal's reason and a decision's feedback are optional: give them one.
  if (kind === 'shutdown_response') Object.assign(overrides, { approve: false, reason: HOSTILE });
  if (kind.endsWith('_response') && kind !== 'shutdown_response') overrides.feedback = HOSTILE;
  return sample(kind, overrides);
}

const KINDS = Object.keys(SAMPLES) as Kind[];

const events: LeadEvent[] = [
  ...KINDS.map((kind): LeadEvent => ({ type: 'message', envelope: hostile(kind) })),
  { type: 'approvals', pending: [record({ request_id: 'plan-1', kind: 'plan', from: 'alice', to: 'lead', summary: HOSTILE })] },
  { type: 'problem', text: HOSTILE },
  { type: 'agent', event: { type: 'input', text: HOSTILE } },
  { type: 'agent', event: { type: 'turn_end', stopReason: 'end_turn', usage: ZERO_USAGE, text: `${HOSTILE}\nsecond line`, model: 'm' } },
  { type: 'agent', event: { type: 'tool_call', id: 't1', name: `bash${HOSTILE}`, input: { command: HOSTILE } } },
  { type: 'agent', event: { type: 'tool_result', id: 't1', name: 'bash', content: HOSTILE, isError: false } },
  { type: 'agent', event: { type: 'error', message: HOSTILE } },
];

function printed(json: 'json' | 'jsonl' | false): string[] {
  const lines: string[] = [];
  const sink = json === false ? undefined : jsonSink({ [json]: true }, (text) => lines.push(text.replace(/\n$/, '')));
  const print = createEventPrinter(sink, (line) => lines.push(line));
  for (const event of events) print(event);
  sink?.end();
  return lines;
}

describe('what an agent wrote never reaches the terminal raw', () => {
  test('teams run: every kind of event, as text', () => {
    const lines = printed(false);
    assert.ok(lines.length >= events.length, `${lines.length} lines`);
    for (const line of lines) assertInert(line, 'a printed event');
    assert.ok(lines.some((line) => line.includes(HOSTILE_SHOWN)), 'the hostile text is shown, escaped');
    // The lead's answer keeps its lines.
    assert.ok(lines.some((line) => line.endsWith(`${HOSTILE_SHOWN}\nsecond line`)));
  });

  test('teams run --jsonl: the same values, escaped, one object per line; --json: the same, as one array', () => {
    const lines = printed('jsonl');
    for (const line of lines) assertInert(line, 'a printed event');
    const parsed = lines.map((line) => JSON.parse(line) as { type: string; envelope?: Envelope });
    assert.deepEqual(parsed.filter((p) => p.type === 'message').map((p) => p.envelope), KINDS.map((_, i) => (events[i] as { envelope: Envelope }).envelope));
    const whole = printed('json');
    assert.equal(whole.length, 1, 'one document');
    assertInert(whole[0] ?? '', 'the document');
    assert.deepEqual(JSON.parse(whole[0] ?? ''), parsed);
  });

  test('the formatters of inbox, log, status and requests', () => {
    for (const kind of KINDS) assertInert(formatMessage(hostile(kind)), kind);
    const at = '2030-01-01T10:00:00.000Z';
    const audit = [
      formatAudit({ event: 'message', at, id: '01hzzzzzzz0000abcdef', type: 'message', from: 'alice', to: 'lead', summary: HOSTILE }),
      formatAudit({ event: 'request', at, request_id: 'plan-1', kind: 'plan', from: 'alice', to: 'lead', from_state: 'pending', to_state: 'rejected', by: HOSTILE, note: HOSTILE }),
      formatAudit({ event: 'member', at, name: 'alice', change: HOSTILE }),
      formatAudit({ event: 'problem', at, agent: 'alice', what: HOSTILE, reason: `${HOSTILE}\n${HOSTILE}` }),
    ];
    for (const line of audit) {
      assertInert(line, 'an audit entry');
      assert.doesNotMatch(line, /\n/, 'an audit entry is one line');
    }
    const member = { name: 'alice', role: HOSTILE, status: 'idle', pid: null, model: HOSTILE, created_at: at, status_since: at } as const;
    const table = formatMembers([member], Date.parse(at));
    assertInert(table, 'the members table');
    assert.equal(table.split('\n').length, 2, 'one row per member');
    const requests = formatRequests([record({ request_id: 'plan-1', kind: 'plan', summary: HOSTILE })]);
    assertInert(requests, 'the requests table');
  });
});

describe("the user's words, as people read them", () => {
  test('inbox and log name the user as the author, relayed by the lead; other kinds keep their sender', () => {
    assert.match(formatMessage(SAMPLES.user_message), / user \(via lead\) → alice \[user_message\] Use the new parser, please$/);
    assert.match(formatMessage(SAMPLES.interrupt), / user \(via lead\) → alice \[interrupt\] stop the current model call or tool, and wait$/);
    assert.match(formatMessage(SAMPLES.message), / lead → alice \[message\] /);
    const at = '2026-12-03T10:00:00.000Z';
    const audited = formatAudit({ event: 'message', at, id: '01hzzzzzzz0000abcdef', type: 'user_message', from: 'lead', to: 'alice', summary: 'Use the new parser, please' });
    assert.match(audited, /message\s+user \(via lead\) → alice \[user_message\] Use the new parser, please$/);
  });
});
