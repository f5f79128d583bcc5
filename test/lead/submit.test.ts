import { after, test } from 'node:test';
import assert from 'node:assert/strict';
import { readControlToken, sendControl } from '../../src/lead/control.js';
import type { LeadOp } from '../../src/lead/ops.js';
import { runCommand } from '../../src/ui/command-runner.js';
import { killAll } from '../helpers/children.js';
import { startOfflineLead } from '../helpers/lead.js';

after(killAll);

test('the control socket and the REPL reach the same submit, and meet the same checks in the same words', async () => {
  const { runtime, paths, cleanup } = await startOfflineLead('teams-submit-');
  const submitted: unknown[] = [];
  const submit = runtime.submit.bind(runtime);
  runtime.submit = (op: LeadOp) => {
    submitted.push(op);
    return submit(op);
  };
  try {
    const token = readControlToken(paths.controlToken);
    assert.ok(token);
    const overSocket = await sendControl(paths.controlSocket, token, { op: 'tell', name: 'nobody', text: 'hello' });
    const inRepl = await runCommand({ name: 'send', to: 'nobody', text: 'hello' }, runtime);
    assert.deepEqual(submitted, [
      { op: 'tell', name: 'nobody', text: 'hello' },
      { op: 'tell', name: 'nobody', text: 'hello' },
    ]);
    assert.ok(overSocket && !overSocket.ok && overSocket.refused, JSON.stringify(overSocket));
    assert.deepEqual(inRepl, [{ kind: 'error', text: `/send: ${overSocket.error}` }]);

    // An op the schema refuses: the same words from submit as at the socket (after its prefix).
    const bad = { op: 'spawn', name: 'Alice!', role: 'coder' } as const;
    const socketWords = await sendControl(paths.controlSocket, token, bad);
    await assert.rejects(submit(bad), (error: Error) => {
      assert.ok(socketWords && !socketWords.ok);
      assert.equal(socketWords.error, `bad control command: ${error.message}`);
      assert.match(error.message, /^spawn: name: /);
      return true;
    });

    // The socket answers with the lead's own words for what it did.
    const reply = await sendControl(paths.controlSocket, token, { op: 'compact', name: 'lead' });
    assert.deepEqual(reply, { ok: true, message: 'asked lead to compact its context (now if idle, else before its next model call)' });
    assert.deepEqual((await runtime.snapshot()).pending, []);

    // quit from another terminal: answered before the stop closes the very socket it came on.
    assert.deepEqual(await sendControl(paths.controlSocket, token, { op: 'quit' }, 10_000), { ok: true, message: 'stopping the team' });
    await submit({ op: 'quit' });
    assert.equal(await sendControl(paths.controlSocket, token, { op: 'sweep' }), undefined, 'no lead listens once it has stopped');
  } finally {
    await runtime.submit({ op: 'quit' });
    cleanup();
  }
});
