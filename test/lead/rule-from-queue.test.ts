import { after, test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { tempHome } from '../helpers/temp.js';
import { saveRule } from '../../src/lead/rule-from-queue.js';
import type { HumanDecision } from '../../src/lead/decisions.js';
import type { RequestRecord } from '../../src/protocol/request-records.js';

const NOW = '2026-12-04T12:00:00.000Z';

function permission(id: string, from: string, name: string, input: Record<string, unknown>): RequestRecord {
  return { request_id: id, kind: 'permission', from, to: 'lead', created_at: NOW, deadline_at: NOW, state: 'pending', summary: `${name}`, tool: { name, input, reason: 'asks' } };
}

test('a rule saved from the queue approves its request, then every other pending command it covers, a line each; the rest wait', async () => {
  const { home, cleanup } = tempHome('teams-rule-queue-');
  after(cleanup);
  process.env.TEAMS_CONFIG_DIR = join(home, 'user-config');
  const pending = [
    permission('r-1', 'alice', 'bash', { command: 'npm test' }),
    permission('r-2', 'bob', 'bash', { command: 'npm test -- --watch' }),
    permission('r-3', 'carol', 'bash', { command: 'npm install' }),
    permission('r-4', 'dave', 'write_file', { path: 'npm', content: '' }),
    permission('r-5', 'erin', 'bash', { command: 'npm test', network: true }),
  ];
  const decided: [string, HumanDecision][] = [];
  const decisions = {
    async decide(requestId: string, decision: HumanDecision): Promise<RequestRecord> {
      const record = pending.find((r) => r.request_id === requestId);
      if (!record || record.state !== 'pending') throw new Error(`request '${requestId}' is not pending`);
      decided.push([requestId, decision]);
      record.state = 'approved';
      return record;
    },
    pendingForHuman: async () => pending.filter((r) => r.state === 'pending'),
  };
  const message = await saveRule('Bash(npm test:*)', false, 'r-1', { home, decisions });
  assert.deepEqual(message.split('\n'), [
    `added allow rule Bash(npm test:*) in ${join(home, 'settings.json')}`,
    'approved permission request r-1 from alice',
    'also approved permission request r-2 from bob: covered by the rule Bash(npm test:*)',
  ]);
  assert.deepEqual(decided.map(([id]) => id), ['r-1', 'r-2']);
  assert.deepEqual(JSON.parse(readFileSync(join(home, 'settings.json'), 'utf8')).permissions.allow, ['Bash(npm test:*)']);

  // Saved again as a network rule: erin's call, which asked for the network, is covered now; a request decided meanwhile is said so.
  const again = await saveRule('Bash(npm test:*)', true, 'r-1', { home, decisions });
  assert.deepEqual(again.split('\n'), [
    `added allow and network rule Bash(npm test:*) in ${join(home, 'settings.json')}`,
    "request r-1 was not approved: request 'r-1' is not pending",
    'also approved permission request r-5 from erin: covered by the rule Bash(npm test:*)',
  ]);
  assert.deepEqual(pending.filter((r) => r.state === 'pending').map((r) => r.request_id), ['r-3', 'r-4']);
});
