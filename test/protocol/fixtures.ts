import { newMessageId } from '../../src/protocol/ids.js';
import type { EnvelopeOf, Kind } from '../../src/protocol/messages.js';
import type { SendContext } from '../../src/protocol/rules.js';
import type { RequestRecord } from '../../src/protocol/request-records.js';

/** Shared samples: one valid envelope of every kind, addressed the way the rules allow. */

export const TIMESTAMP = '2025-03-01T12:00:00.000Z';

function stamp<K extends Kind>(fields: Omit<EnvelopeOf<K>, 'id' | 'timestamp'>): EnvelopeOf<K> {
  return { ...fields, id: newMessageId(), timestamp: TIMESTAMP } as EnvelopeOf<K>;
}

export const SAMPLES: { [K in Kind]: EnvelopeOf<K> } = {
  message: stamp({ type: 'message', from: 'lead', to: 'alice', text: 'Look at the failing test', summary: 'failing test' }),
  broadcast: stamp({ type: 'broadcast', from: 'lead', to: '*', text: 'Stand-up in five', summary: 'stand-up' }),
  shutdown_request: stamp({ type: 'shutdown_request', from: 'lead', to: 'alice', request_id: 'shutdown-abc', reason: 'Bob finished it' }),
  shutdown_response: stamp({ type: 'shutdown_response', from: 'alice', to: 'lead', request_id: 'shutdown-abc', approve: true }),
  finish_request: stamp({ type: 'finish_request', from: 'alice', to: 'lead', request_id: 'finish-abc', summary: 'Parser done, 12 tests' }),
  finish_response: stamp({ type: 'finish_response', from: 'lead', to: 'alice', request_id: 'finish-abc', approve: true }),
  plan_approval_request: stamp({ type: 'plan_approval_request', from: 'alice', to: 'lead', request_id: 'plan-abc', plan: '1. Read\n2. Fix' }),
  plan_approval_response: stamp({
    type: 'plan_approval_response',
    from: 'lead',
    to: 'alice',
    request_id: 'plan-abc',
    approve: true,
    permission_mode: 'default',
  }),
  permission_request: stamp({
    type: 'permission_request',
    from: 'alice',
    to: 'lead',
    request_id: 'permission-abc',
    tool_name: 'bash',
    tool_input: { command: 'rm -rf build' },
    reason: 'clean the build output',
  }),
  permission_response: stamp({ type: 'permission_response', from: 'lead', to: 'alice', request_id: 'permission-abc', approve: true }),
  task_assignment: stamp({ type: 'task_assignment', from: 'lead', to: 'alice', task_id: 't1', subject: 'Fix parser', description: 'It drops comments' }),
  mode_set: stamp({ type: 'mode_set', from: 'lead', to: 'alice', permission_mode: 'accept-edits', reason: 'trusted with edits' }),
  user_message: stamp({ type: 'user_message', from: 'lead', to: 'alice', text: 'Use the new parser, please' }),
  interrupt: stamp({ type: 'interrupt', from: 'lead', to: 'alice' }),
  hook_feedback: stamp({ type: 'hook_feedback', from: 'lead', to: 'alice', event: 'teammate_idle', command: 'npm test', feedback: '2 tests failed' }),
  rules_set: stamp({ type: 'rules_set', from: 'lead', to: 'alice', allow: ['bash(npm test*)', 'write_file(src/**)'], deny: ['bash(curl *)'] }),
  idle_notification: stamp({ type: 'idle_notification', from: 'alice', to: 'lead', reason: 'waiting for review' }),
  task_notification: stamp({
    type: 'task_notification',
    from: 'alice',
    to: 'lead',
    task_id: 't1',
    status: 'completed',
    summary: 'Agent "Fix parser" completed',
  }),
  code_review_request: stamp({
    type: 'code_review_request',
    from: 'alice',
    to: 'bob',
    request_id: 'review-abc',
    subject: 'Parser fix',
    files: ['src/parser.ts'],
    diff: '-a\n+b',
  }),
  code_review_response: stamp({ type: 'code_review_response', from: 'bob', to: 'alice', request_id: 'review-abc', approve: true, comments: 'Looks right' }),
};

/** A sample with some fields replaced; the result is deliberately not re-validated. */
export function sample<K extends Kind>(kind: K, overrides: Partial<Record<string, unknown>> = {}): EnvelopeOf<K> {
  return { ...SAMPLES[kind], id: newMessageId(), ...overrides } as EnvelopeOf<K>;
}

/** A pending request as the tracker holds it, matching the samples above by default. */
export function record(overrides: Partial<RequestRecord> & Pick<RequestRecord, 'request_id' | 'kind'>): RequestRecord {
  return {
    from: 'lead',
    to: 'alice',
    created_at: TIMESTAMP,
    deadline_at: '2025-03-01T12:10:00.000Z',
    state: 'pending',
    summary: 'a request',
    ...overrides,
  };
}

/** The tracker state under which every sample response is valid. */
export const PENDING: readonly RequestRecord[] = [
  record({ request_id: 'shutdown-abc', kind: 'shutdown' }),
  record({ request_id: 'finish-abc', kind: 'finish', from: 'alice', to: 'lead' }),
  record({ request_id: 'plan-abc', kind: 'plan', from: 'alice', to: 'lead' }),
  record({ request_id: 'permission-abc', kind: 'permission', from: 'alice', to: 'lead' }),
  record({ request_id: 'review-abc', kind: 'review', from: 'alice', to: 'bob' }),
];

export function context(requests: readonly RequestRecord[] = [], members: readonly string[] = ['lead', 'alice', 'bob']): SendContext {
  return { team: 'default', members, lookupRequest: (id) => requests.find((r) => r.request_id === id) };
}
