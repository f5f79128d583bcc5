import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { createConnection, createServer } from 'node:net';
import { chmodSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import {
  ControlReply,
  issueControlToken,
  readControlToken,
  sendControl,
  startControlServer,
} from '../../src/lead/control.js';
import type { LeadOp } from '../../src/lead/ops.js';
import { tempHome } from '../helpers/temp.js';

const temp = tempHome('teams-control-');
const socket = join(temp.home, 'lead.sock');
const TOKEN = 'a'.repeat(16) + '0123456789abcdef'.repeat(3);

const handled: LeadOp[] = [];
const refusals: string[] = [];
let server: { close(): Promise<void> } | undefined;

before(async () => {
  server = await startControlServer(
    socket,
    TOKEN,
    (command) => {
      handled.push(command);
      return Promise.resolve({ ok: true, message: `did ${command.op}` });
    },
    (why) => refusals.push(why),
  );
});

after(async () => {
  await server?.close();
  temp.cleanup();
});

/** Write raw bytes to the socket and read its one-line reply, the way any local process could. */
function raw(payload: string | Buffer): Promise<ControlReply> {
  return new Promise((resolve, reject) => {
    const client = createConnection(socket);
    let reply = '';
    client.setEncoding('utf8');
    client.on('connect', () => client.write(payload));
    client.on('data', (chunk: string) => (reply += chunk));
    const finish = () => {
      const parsed = ControlReply.safeParse(JSON.parse(reply.trim() || 'null'));
      if (parsed.success) resolve(parsed.data);
      else reject(new Error(`no control reply: '${reply.slice(0, 200)}'`));
    };
    client.on('end', finish);
    // The server may close on a client still writing a huge line: what it answered is what counts.
    client.on('error', (error: NodeJS.ErrnoException) => (reply ? finish() : reject(error)));
  });
}

/** Each refused attempt must leave the handler uncalled. */
async function refused(payload: string | Buffer, error: RegExp): Promise<void> {
  const before = handled.length;
  const reply = await raw(payload);
  assert.equal(reply.ok, false, JSON.stringify(reply));
  if (reply.ok) return;
  assert.equal(reply.refused, true);
  assert.match(reply.error, error);
  assert.equal(handled.length, before, 'the handler was never called');
}

describe('the control socket', { timeout: 20_000 }, () => {
  test('a command with no token is refused', async () => {
    await refused(`${JSON.stringify({ op: 'sweep' })}\n`, /bad control command: token/);
    await refused(`${JSON.stringify({ op: 'decide', request_id: 'plan-1', approve: true })}\n`, /token/);
  });

  test('a wrong token is refused and reported', async () => {
    const seen = refusals.length;
    const wrong = [
      '0'.repeat(64),
      TOKEN.slice(0, 63),
      `${TOKEN}0`,
      TOKEN.toUpperCase(),
      '',
    ];
    for (const token of wrong) await refused(`${JSON.stringify({ op: 'decide', request_id: 'plan-1', approve: true, token })}\n`, /without this lead's control token/);
    assert.equal(refusals.length, seen + wrong.length, 'each refusal reached the lead, to be audited');
    assert.ok(refusals.slice(seen).every((why) => /refused: decide without this lead's control token/.test(why)));
  });

  test("the old client_pid style is refused, even claiming the lead's own pid", async () => {
    for (const pid of [process.pid, 1, 4242]) {
      await refused(`${JSON.stringify({ op: 'decide', request_id: 'plan-1', approve: true, client_pid: pid })}\n`, /bad control command: token/);
    }
  });

  test('a token of the wrong type is refused', async () => {
    await refused(`${JSON.stringify({ op: 'sweep', token: 1 })}\n`, /bad control command: token/);
    await refused(`${JSON.stringify({ op: 'sweep', token: [TOKEN] })}\n`, /bad control command: token/);
  });

  test('non-JSON is refused', async () => {
    await refused('approve plan-1\n', /control command is not JSON/);
    await refused(`${TOKEN}\n`, /not JSON|bad control command/);
  });

  test('an oversized line is refused, even with the right token', async () => {
    const huge = `${JSON.stringify({ op: 'send', to: 'alice', text: 'x'.repeat(1024 * 1024 + 10), token: TOKEN })}\n`;
    await refused(huge, /command too large/);
    await refused(Buffer.alloc(1024 * 1024 + 1, 'y'), /command too large/);
  });

  test('a valid command with an unknown op is refused before any token check', async () => {
    await refused(`${JSON.stringify({ op: 'exec', command: 'id', token: TOKEN })}\n`, /bad control command: unknown op 'exec'; the ops: decide, spawn/);
    await refused(`${JSON.stringify({ op: 'exec', command: 'id', token: 'x' })}\n`, /bad control command: unknown op 'exec'/);
  });

  test('a known op is checked with the one LeadOp schema, in its words', async () => {
    await refused(`${JSON.stringify({ op: 'spawn', name: 'Alice!', role: 'coder', token: TOKEN })}\n`, /^bad control command: spawn: name: /);
    await refused(`${JSON.stringify({ op: 'tell', name: 'alice', text: '', token: TOKEN })}\n`, /^bad control command: tell: text: must not be empty$/);
  });

  test('the right token works, and the handler gets the command without it', async () => {
    const before = handled.length;
    const reply = await sendControl(socket, TOKEN, { op: 'decide', request_id: 'plan-1', approve: true });
    assert.deepEqual(reply, { ok: true, message: 'did decide' });
    assert.deepEqual(handled.slice(before), [{ op: 'decide', request_id: 'plan-1', approve: true }]);
    assert.deepEqual((await raw(`${JSON.stringify({ op: 'sweep', token: TOKEN })}\n`)), { ok: true, message: 'did sweep' });
  });
});

describe('the control token file', () => {
  test('issued fresh, 64 hex characters, mode 0600 whatever the umask and whatever was there before', () => {
    const path = join(temp.home, 'control.token');
    writeFileSync(path, 'old\n');
    chmodSync(path, 0o644);
    const umask = process.umask(0);
    let token: string;
    try {
      token = issueControlToken(path);
    } finally {
      process.umask(umask);
    }
    assert.match(token, /^[0-9a-f]{64}$/);
    assert.equal(statSync(path).mode & 0o777, 0o600);
    assert.equal(readControlToken(path), token);
    assert.notEqual(issueControlToken(path), token, 'every lead gets its own');
  });

  test('a missing file means no running lead', () => {
    assert.equal(readControlToken(join(temp.home, 'no-such.token')), undefined);
  });

  test('a file that is not 64 hex characters is rejected with a clear error', () => {
    const path = join(temp.home, 'bad.token');
    for (const text of ['', 'abc', 'f'.repeat(63), 'f'.repeat(65), 'g'.repeat(64), 'F'.repeat(64), `${'a'.repeat(32)} ${'a'.repeat(31)}`, '{"token":"x"}']) {
      writeFileSync(path, text);
      assert.throws(() => readControlToken(path), (error: Error) => {
        assert.match(error.message, new RegExp(`${path.replaceAll('/', '\\/')} does not hold a control token; restart the lead`));
        return true;
      }, JSON.stringify(text));
    }
    writeFileSync(path, ` ${'ab'.repeat(32)}\n`);
    assert.equal(readControlToken(path), 'ab'.repeat(32), 'surrounding whitespace is fine');
  });
});

describe('the control socket when reporting a refusal fails', { timeout: 20_000 }, () => {
  test('the client still gets an answer, and the lead no unhandled rejection', async () => {
    const path = join(temp.home, 'failing.sock');
    const failing = await startControlServer(
      path,
      TOKEN,
      () => Promise.resolve({ ok: true, message: 'never' }),
      () => {
        throw new Error('the audit log is not writable');
      },
    );
    try {
      const reply = await sendControl(path, '0'.repeat(64), { op: 'sweep' });
      assert.deepEqual(reply, { ok: false, error: 'the audit log is not writable', refused: false });
    } finally {
      await failing.close();
    }
  });
});

describe('a lead that goes away while asked', () => {
  test('a socket closed without an answer is a lead no longer running (the caller goes on without one), not an unreadable reply', async () => {
    const path = join(temp.home, 'closing.sock');
    // A lead stopping as it is asked: it takes the connection and closes it without a word.
    const closing = createServer((socket) => {
      // Read (and drop) what comes, as the lead does, so the server sees the client's end and can close.
      socket.resume();
      socket.end();
    });
    await new Promise<void>((resolve) => closing.listen(path, resolve));
    try {
      assert.equal(await sendControl(path, TOKEN, { op: 'sweep' }), undefined);
    } finally {
      await new Promise((resolve) => closing.close(resolve));
    }
  });
});
