import { historyOf } from '../helpers/history.js';
import { test, describe, after } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Envelope } from '../../src/protocol/messages.js';
import { tempHome } from '../helpers/temp.js';
import { waitFor } from '../helpers/wait.js';
import { textMessage } from '../fixtures/mailbox-envelopes.js';
import { WRITER_ID } from '../../src/store/file/mailbox/log-names.js';
import { line } from '../fixtures/mailbox-logs.js';
import { ids, recorder, teamMaker, withSubscription } from '../fixtures/mailbox-team.js';

const { home, cleanup } = tempHome();
after(cleanup);
const freshTeam = teamMaker(home);

/** Stands in for a signature check: refuses what claims to be forged. */
const refuseForged = (envelope: Envelope) =>
  envelope.type === 'message' && envelope.text.startsWith('forged') ? { ok: false as const, reason: 'bad signature' } : { ok: true as const };

describe('subscribe with an admission check', () => {
  test('a refused message is set aside with the reason, never journaled nor delivered; the others are', async () => {
    const { transport, box } = freshTeam({ onError: (error) => assert.fail(String(error)) });
    const good = [textMessage('alice', 'bob', 'good 0'), textMessage('alice', 'bob', 'good 1')];
    const forged = [textMessage('alice', 'bob', 'forged 0'), textMessage('alice', 'bob', 'forged 1')];
    const [good0, good1] = good;
    const [forged0, forged1] = forged;
    assert.ok(good0 && good1 && forged0 && forged1);
    // One of each waiting before the subscription (the backlog), one of each after (live).
    await transport.deliver('bob', good0);
    await transport.deliver('bob', forged0);
    const seen = recorder();
    await withSubscription(transport.subscribe('bob', seen.listener, { admit: refuseForged }), async () => {
      await transport.deliver('bob', forged1);
      await transport.deliver('bob', good1);
      await waitFor(() => seen.delivered().length === 2 && seen.setAside().length === 2, 'both good delivered, both forged set aside');
      assert.deepEqual(ids(seen.delivered()), ids(good));
      assert.deepEqual(ids(await historyOf(transport, 'bob')), ids(good), 'only the admitted are journaled');
      // Each kept as <log>.<offset>: forged0 follows good0 in this process's log, forged1 follows forged0.
      const log = `${WRITER_ID}.0.log`;
      const offsets = [line(good0).length, line(good0).length + line(forged0).length];
      assert.deepEqual(
        seen.setAside(),
        offsets.map((offset) => ({ ref: join(box().bad, `${log}.${offset}`), reason: 'refused: bad signature' })),
      );
      assert.deepEqual(
        offsets.map((offset) => readFileSync(join(box().bad, `${log}.${offset}`), 'utf8')),
        forged.map((m) => JSON.stringify(m)),
        'kept as evidence',
      );
      assert.deepEqual((await transport.peek('bob')).messages, []);
    });
  });

  test('a check that throws refuses the message (fails closed) and the consumer goes on', async () => {
    const errors: unknown[] = [];
    const { transport, box } = freshTeam({ onError: (error) => errors.push(error) });
    const message = textMessage('alice', 'bob', 'hello');
    await transport.deliver('bob', message);
    const seen = recorder();
    const admit = () => {
      throw new Error('key store unreadable');
    };
    await withSubscription(transport.subscribe('bob', seen.listener, { admit }), async () => {
      assert.deepEqual(seen.delivered(), []);
      assert.deepEqual(await historyOf(transport, 'bob'), []);
      assert.deepEqual(seen.setAside(), [{ ref: join(box().bad, `${WRITER_ID}.0.log.0`), reason: 'refused: the admission check failed: key store unreadable' }]);
      assert.deepEqual(errors, []);
    });
  });
});
