import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { runCli } from '../helpers/cli.js';
import { tempHome } from '../helpers/temp.js';
import { killAll } from '../helpers/children.js';
import { assertInert, HOSTILE, HOSTILE_SHOWN, show } from '../helpers/hostile.js';
import { TeamBus } from '../../src/team/bus.js';
import { storeOf } from '../helpers/store.js';
import { newRequestId } from '../../src/protocol/ids.js';

after(killAll);

/**
 * A teammate's words shown by the real CLI: every text it chose (a message, a plan, a role, a
 * problem's reason) is printed escaped, and --json gives the same text back when parsed.
 */
describe('hostile text through the teams command line', () => {
  const { home, cleanup } = tempHome();
  after(cleanup);
  const body = `${HOSTILE}\nsecond line`;
  before(async () => {
    assert.equal((await runCli(home, ['member', 'add', 'alice', '--role', 'coder'])).code, 0);
    assert.equal((await runCli(home, ['member', 'add', 'bob', '--role', HOSTILE])).code, 0);
    const store = storeOf(home);
    // As bob's own process would send it (the CLI sends only the lead's messages, through the lead).
    await new TeamBus(store).send({ type: 'message', from: 'bob', to: 'alice', text: body, summary: 'x' });
    await new TeamBus(store).send({ type: 'plan_approval_request', from: 'alice', to: 'lead', request_id: newRequestId('plan'), plan: body });
    await store.audit.append({ event: 'problem', agent: 'alice', what: HOSTILE, reason: body });
  });

  async function shown(args: string[]): Promise<string> {
    const result = await runCli(home, args);
    const what = args.join(' ');
    assertInert(result.stdout, what);
    assertInert(result.stderr, `${what} (stderr)`);
    assert.equal(result.code, 0, show(`${what}: ${result.stderr}`));
    return result.stdout;
  }

  test('member add: the role echoed escaped', async () => {
    assert.ok((await shown(['member', 'add', 'carol', '--role', HOSTILE])).includes(HOSTILE_SHOWN));
  });

  test('inbox: the message, escaped, its lines kept', async () => {
    assert.ok((await shown(['inbox', 'alice'])).includes(`[message] ${HOSTILE_SHOWN}\nsecond line`));
    assert.ok((await shown(['inbox', 'lead'])).includes(HOSTILE_SHOWN));
  });

  test('log: each entry on one line, escaped', async () => {
    const log = await shown(['log']);
    assert.ok(log.includes(`problem  ${HOSTILE_SHOWN}: ${HOSTILE_SHOWN}\\nsecond line`), log);
    assert.ok((await shown(['log', '--agent', 'bob'])).includes(HOSTILE_SHOWN));
  });

  test('status and requests: the role and the plan, escaped', async () => {
    assert.ok((await shown(['status'])).includes(HOSTILE_SHOWN));
    assert.ok((await shown(['requests'])).includes(HOSTILE_SHOWN.slice(0, 40)));
  });

  test('--jsonl and --json: escaped on the terminal, the same text once parsed', async () => {
    const parse = (text: string) => text.trim().split('\n').map((line) => JSON.parse(line) as Record<string, unknown>);
    assert.deepEqual(parse(await shown(['inbox', 'alice', '--jsonl'])).map((m) => m.text), [body]);
    assert.ok(parse(await shown(['log', '--jsonl'])).some((e) => e.reason === body));
    assert.deepEqual(parse(await shown(['requests', '--jsonl'])).map((r) => r.summary), [body]);
    const status = parse(await shown(['status', '--json']))[0] as { members: { role: string }[]; pending: { summary: string }[] };
    assert.ok(status.members.some((m) => m.role === HOSTILE));
    assert.deepEqual(status.pending.map((r) => r.summary), [body]);
  });
});
