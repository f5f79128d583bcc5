import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import * as z from 'zod';
import {
  Envelope,
  KINDS,
  KIND_FIELDS,
  MAX_MESSAGE_BYTES,
  REQUEST_KINDS,
  RequestKindSchema,
  Usage,
  summarize,
  type Kind,
} from '../../src/protocol/messages.js';
import { SAMPLES, sample } from './fixtures.js';

function issues(value: unknown): string[] {
  const result = Envelope.safeParse(value);
  assert.equal(result.success, false, `expected ${JSON.stringify(value)} to be refused`);
  return result.error?.issues.map((i) => `${i.path.join('.')}: ${i.message}`) ?? [];
}

function accepts(value: unknown): void {
  const result = Envelope.safeParse(value);
  assert.ok(result.success, `expected acceptance, got ${JSON.stringify(result.error?.issues)}`);
}

describe('Envelope: every kind', () => {
  test('the samples cover every kind', () => {
    assert.deepEqual(Object.keys(SAMPLES).sort(), [...KINDS].sort());
  });

  for (const kind of KINDS) {
    describe(kind, () => {
      test('a valid instance parses to itself', () => {
        assert.deepEqual(Envelope.parse(SAMPLES[kind]), SAMPLES[kind]);
      });

      test('unknown fields are refused (strict)', () => {
        const found = issues({ ...SAMPLES[kind], extra: 1 });
        assert.ok(found.some((m) => m.includes('extra')), found.join('\n'));
      });

      test('camelCase spellings of fields are refused, not ignored', () => {
        const value: Record<string, unknown> = { ...SAMPLES[kind] };
        if (!('request_id' in value)) return;
        value.requestId = value.request_id;
        delete value.request_id;
        issues(value);
      });

      test('each required field is required and each optional one optional', () => {
        const fields: Record<string, z.ZodType> = KIND_FIELDS[kind];
        for (const field of Object.keys(fields)) {
          const value: Record<string, unknown> = { ...SAMPLES[kind] };
          delete value[field];
          const optional = fields[field]?.safeParse(undefined).success ?? false;
          assert.equal(Envelope.safeParse(value).success, optional, `${kind} without ${field}`);
        }
      });

      test('the envelope fields are required', () => {
        for (const field of ['type', 'id', 'from', 'to', 'timestamp']) {
          const value: Record<string, unknown> = { ...SAMPLES[kind] };
          delete value[field];
          assert.equal(Envelope.safeParse(value).success, false, `${kind} without ${field}`);
        }
      });

      test('the fields of one kind under another type are refused', () => {
        // message and broadcast share their fields, so each is checked against a notification.
        const other: Kind = kind === 'message' || kind === 'broadcast' ? 'idle_notification' : 'message';
        issues({ ...SAMPLES[kind], type: other });
      });
    });
  }

  test('an unknown type is refused', () => {
    issues({ ...SAMPLES.message, type: 'chat' });
  });
});

describe('Envelope: kind-specific invalid instances', () => {
  const cases: [string, unknown, string][] = [
    ['empty message text', sample('message', { text: '' }), 'text: text is empty'],
    ['message summary over 200 chars', sample('message', { summary: 'x'.repeat(201) }), 'summary: summary is longer than 200 characters'],
    ['broadcast text not a string', sample('broadcast', { text: 42 }), 'text:'],
    ['empty request_id', sample('shutdown_request', { request_id: '' }), 'request_id: request_id is empty'],
    ['request_id over 64 chars', sample('shutdown_request', { request_id: 'r'.repeat(65) }), 'request_id: request_id is longer than 64 characters'],
    ['shutdown approve as a number', sample('shutdown_response', { approve: 1 }), 'approve:'],
    ['empty finish summary', sample('finish_request', { summary: '' }), 'summary: summary is empty'],
    ['finish approve missing', sample('finish_response', { approve: undefined }), 'approve:'],
    ['empty plan', sample('plan_approval_request', { plan: '' }), 'plan: plan is empty'],
    ['unknown permission mode', sample('plan_approval_response', { permission_mode: 'root' }), 'permission_mode:'],
    ['empty tool name', sample('permission_request', { tool_name: '' }), 'tool_name: tool_name is empty'],
    ['tool input not an object', sample('permission_request', { tool_input: 'rm -rf /' }), 'tool_input:'],
    ['permission feedback not a string', sample('permission_response', { feedback: false }), 'feedback:'],
    ['unknown mode in mode_set', sample('mode_set', { permission_mode: 'root' }), 'permission_mode:'],
    ['mode_set without a mode', sample('mode_set', { permission_mode: undefined }), 'permission_mode:'],
    ['empty task subject', sample('task_assignment', { subject: '' }), 'subject:'],
    ['empty idle reason', sample('idle_notification', { reason: '' }), 'reason:'],
    ['unknown task status', sample('task_notification', { status: 'done' }), 'status:'],
    ['negative usage', sample('task_notification', { usage: { input_tokens: -1, output_tokens: 0 } }), 'usage.input_tokens:'],
    ['fractional token count', sample('task_notification', { usage: { input_tokens: 1.5, output_tokens: 0 } }), 'usage.input_tokens:'],
    ['unknown usage field', sample('task_notification', { usage: { input_tokens: 1, output_tokens: 1, cost: 3 } }), 'usage:'],
    ['empty review subject', sample('code_review_request', { subject: '' }), 'subject: subject is empty'],
    ['review files not a list', sample('code_review_request', { files: 'src/parser.ts' }), 'files:'],
    ['empty review comments', sample('code_review_response', { comments: '' }), 'comments: comments is empty'],
  ];
  for (const [name, value, expected] of cases) {
    test(name, () => {
      const found = issues(value);
      assert.ok(found.some((m) => m.startsWith(expected)), `expected an issue starting '${expected}', got:\n${found.join('\n')}`);
    });
  }

  test('optional fields accept their full forms', () => {
    accepts(sample('shutdown_response', { approve: false, reason: 'mid-migration' }));
    accepts(sample('task_notification', {
      status: 'failed',
      result: 'stack trace',
      usage: { input_tokens: 1, output_tokens: 2, cache_read_tokens: 3, cache_write_tokens: 4, tool_uses: 5, duration_ms: 6.5 },
    }));
    accepts(sample('idle_notification', { summary: 'fixed the parser' }));
    accepts(sample('shutdown_response', { signature: 'sig' }));
    for (const mode of ['plan', 'default', 'accept-edits', 'bypass']) accepts(sample('plan_approval_response', { permission_mode: mode }));
  });
});

describe('Envelope: envelope fields', () => {
  test('id must be a 20-char lowercase Crockford base32 id', () => {
    for (const id of ['', 'short', '0'.repeat(19), '0'.repeat(21), 'A'.repeat(20), `${'0'.repeat(19)}i`, `${'0'.repeat(19)}l`, `${'0'.repeat(19)}o`, `${'0'.repeat(19)}u`]) {
      const found = issues(sample('message', { id }));
      assert.ok(found.some((m) => m.startsWith('id: message id must be a 20-char time-sortable id')), `${id}: ${found.join()}`);
    }
    accepts(sample('message', { id: '0123456789abcdefghjk' }));
  });

  test('from must be an agent name, never "*"', () => {
    assert.ok(issues(sample('message', { from: 'Alice' })).some((m) => m.startsWith('from: agent name')));
    issues(sample('broadcast', { from: '*' }));
  });

  test('to is an agent name or "*"', () => {
    accepts(sample('message', { to: '*' }));
    assert.ok(issues(sample('message', { to: 'a/b' })).some((m) => m.startsWith('to:')));
  });

  test('timestamp must be ISO 8601 with a zone', () => {
    accepts(sample('message', { timestamp: '2025-03-01T12:00:00+02:00' }));
    for (const timestamp of ['2025-03-01', 'yesterday', '2025-03-01T12:00:00', 1740830400000]) {
      assert.ok(issues(sample('message', { timestamp })).some((m) => m.startsWith('timestamp:')), String(timestamp));
    }
  });

  test('signature is optional text', () => {
    issues(sample('message', { signature: 7 }));
  });
});

describe('request kinds', () => {
  test('each request kind pairs a request type with its response type', () => {
    assert.deepEqual(REQUEST_KINDS, {
      shutdown: { request: 'shutdown_request', response: 'shutdown_response' },
      finish: { request: 'finish_request', response: 'finish_response' },
      plan: { request: 'plan_approval_request', response: 'plan_approval_response' },
      permission: { request: 'permission_request', response: 'permission_response' },
      review: { request: 'code_review_request', response: 'code_review_response' },
    });
  });

  test('RequestKindSchema accepts exactly the request kinds', () => {
    for (const kind of Object.keys(REQUEST_KINDS)) assert.ok(RequestKindSchema.safeParse(kind).success);
    assert.equal(RequestKindSchema.safeParse('shutdown_request').success, false);
  });

  test('every request and response carries a request_id', () => {
    for (const pair of Object.values(REQUEST_KINDS)) {
      assert.ok('request_id' in KIND_FIELDS[pair.request]);
      assert.ok('request_id' in KIND_FIELDS[pair.response]);
    }
  });
});

describe('Usage', () => {
  test('input and output tokens are required', () => {
    assert.ok(Usage.safeParse({ input_tokens: 0, output_tokens: 0 }).success);
    assert.equal(Usage.safeParse({ input_tokens: 0 }).success, false);
  });
});

describe('limits and summaries', () => {
  test('the message limit is 256 KiB', () => {
    assert.equal(MAX_MESSAGE_BYTES, 262144);
  });

  test('summarize takes the trimmed first line', () => {
    assert.equal(summarize('  hello\nworld'), 'hello');
    assert.equal(summarize(''), '');
  });

  test('summarize cuts long lines to max with an ellipsis', () => {
    const cut = summarize('x'.repeat(100), 10);
    assert.equal(cut, `${'x'.repeat(9)}…`);
    assert.equal(cut.length, 10);
    assert.equal(summarize('x'.repeat(10), 10), 'x'.repeat(10));
  });
});
