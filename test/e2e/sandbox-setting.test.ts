import { after, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { createServer, type Server } from 'node:net';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { killAll } from '../helpers/children.js';
import { waitFor } from '../helpers/wait.js';
import { toolResults } from './hostile.js';
import { TeamSession } from './session.js';

after(killAll);

type ToolResultEvent = { type: 'tool_result'; name: string; content: string; isError: boolean };

/** The lead's own tool results, as `teams run --json` printed them. */
function leadResults(session: TeamSession, name: string): ToolResultEvent[] {
  return session.events().flatMap((e) => {
    const event = e.event as ToolResultEvent | undefined;
    return e.type === 'agent' && event?.type === 'tool_result' && event.name === name ? [event] : [];
  });
}

async function leadStarted(session: TeamSession): Promise<string | undefined> {
  const entry = (await session.audit()).find((e) => e.event === 'member' && e.name === 'lead' && e.change.startsWith('started'));
  return entry?.event === 'member' ? entry.change : undefined;
}

/** SIGTERM the lead unless it already ended by itself, and expect a clean exit. */
async function stopLead(session: TeamSession): Promise<void> {
  if (session.lead.process.exitCode === null && session.lead.process.signalCode === null) process.kill(session.lead.pid, 'SIGTERM');
  assert.equal((await session.exited()).code, 0, session.lead.stderr());
}

/** After its spawn, the lead runs a risky command: it waits for the human, which keeps the run going. */
const LEAD_WAITS = [
  {
    name: 'lead: a risky command of its own after the spawn',
    when: { agent: 'lead', after_tool: 'spawn_teammate' },
    reply: { text: 'Clearing the cache myself.', tool_uses: [{ name: 'bash', input: { command: 'rm -rf build/cache' } }] },
  },
];

describe('where agents\' commands run, as set when the lead starts', () => {
  test('no bubblewrap (TEAMS_BWRAP names a missing program): the lead starts, but no teammate outside bypass, and it says why', async (t) => {
    const session = await TeamSession.start({ env: { TEAMS_BWRAP: '/nonexistent/bwrap' }, extraRules: LEAD_WAITS });
    t.after(() => session.cleanup());
    // The lead runs: its own risky command waits for the human.
    const leadAsks = await session.pending('permission');
    assert.equal(leadAsks.from, 'lead');

    // The demo's plan-mode spawn of alice failed, and the lead's model was told why.
    const [spawn] = leadResults(session, 'spawn_teammate');
    assert.ok(spawn, 'the lead got a spawn_teammate result');
    assert.equal(spawn.isError, true, spawn.content);
    assert.match(spawn.content, /cannot start alice: bubblewrap \(\/nonexistent\/bwrap\) is not installed: commands in plan mode need the sandbox/);
    assert.match(spawn.content, /--no-sandbox/);
    assert.equal((await session.member('alice')), undefined, 'alice never made the roster');

    // `teams spawn` from another shell: refused, a usage error, with the way out.
    const spawned = await session.cli(['spawn', 'x', '--role', 'r']);
    assert.equal(spawned.code, 2, spawned.stderr);
    assert.match(spawned.stderr, /bubblewrap/);
    assert.match(spawned.stderr, /--no-sandbox/);
    assert.match(spawned.stderr, /default mode/);
    assert.equal((await session.member('x')), undefined);

    // Where a person looks: the team's config and the audit log.
    assert.match((await session.store.roster.load())?.sandbox ?? '', /^sandbox UNAVAILABLE \(bubblewrap \(\/nonexistent\/bwrap\) is not installed\): teammates cannot start except in bypass mode; install bubblewrap \(Debian\/Ubuntu: sudo apt-get install bubblewrap\)/);
    assert.match((await leadStarted(session)) ?? '', /started; commands sandbox UNAVAILABLE/);

    // The lead's own command, approved by the human, is not run unsandboxed either.
    assert.equal((await session.cli(['approve', leadAsks.request_id])).code, 0);
    const bash = await waitFor(() => leadResults(session, 'bash')[0], "the lead's bash result");
    assert.equal(bash.isError, true, bash.content);
    assert.match(bash.content, /need the sandbox/);
    await stopLead(session);
  });

  test('no bubblewrap, bypass mode: a teammate starts, unsandboxed; a plan-mode one still does not', async (t) => {
    const rules = [
      // The lead's own command (bypass: not asked) holds the run open until the test releases it.
      {
        name: 'lead: wait for the release file',
        when: { agent: 'lead', after_tool: 'spawn_teammate' },
        times: 1,
        reply: { text: 'Waiting.', tool_uses: [{ name: 'bash', input: { command: 'until [ -e release ]; do sleep 0.05; done; echo released' } }] },
      },
      {
        name: 'bee looks for the lead process',
        when: { agent: 'bee', turn: 1, last: 'PID<<(?<pid>\\d+)>>' },
        reply: { text: 'Looking.', tool_uses: [{ name: 'bash', input: { command: 'test -d /proc/{{last.pid}} && echo SEES-THE-LEAD' } }] },
      },
      { name: 'bee is done', when: { agent: 'bee', after_tool: 'bash' }, reply: { text: 'Done.' } },
    ];
    const session = await TeamSession.start({ env: { TEAMS_BWRAP: '/nonexistent/bwrap' }, extraRules: rules, extraArgs: ['--permission-mode', 'bypass'] });
    t.after(() => session.cleanup());
    const spawn = await waitFor(() => leadResults(session, 'spawn_teammate')[0], "the lead's spawn result", 15_000);
    assert.equal(spawn.isError, true, spawn.content);
    assert.match(spawn.content, /commands in plan mode need the sandbox/);

    const spawned = await session.cli(['spawn', 'bee', '--role', 'r', '--prompt', `PID<<${session.lead.pid}>>`]);
    assert.equal(spawned.code, 0, spawned.stderr);
    const result = await waitFor(() => toolResults(session, 'bee').find((r) => r.name === 'bash'), "bee's bash result", 20_000);
    assert.match(result.content, /SEES-THE-LEAD/, 'bypass without bubblewrap runs unsandboxed');

    writeFileSync(join(session.workdir, 'release'), '');
    await stopLead(session);
  });

  test("`teams status` says the sandbox is unavailable", async (t) => {
    const session = await TeamSession.start({ env: { TEAMS_BWRAP: '/nonexistent/bwrap' }, extraRules: LEAD_WAITS });
    t.after(() => session.cleanup());
    await session.pending('permission');
    const status = await session.cli(['status']);
    assert.equal(status.code, 0, status.stderr);
    const json = await session.cli(['status', '--json']);
    await stopLead(session);
    assert.match(status.stdout, /UNAVAILABLE/);
    assert.match(json.stdout, /UNAVAILABLE/);
  });

  test('--no-sandbox: the demo runs to the end, and the config and the audit log say approvals are advisory', async (t) => {
    const session = await TeamSession.start({ extraArgs: ['--no-sandbox'] });
    t.after(() => session.cleanup());
    const plan = await session.pending('plan');
    assert.match((await session.store.roster.load())?.sandbox ?? '', /sandbox OFF \(--no-sandbox\): approvals are advisory/);
    assert.match((await leadStarted(session)) ?? '', /^started; commands sandbox OFF \(--no-sandbox\): approvals are advisory/);
    assert.equal((await session.cli(['approve', plan.request_id])).code, 0);
    const seen: string[] = [];
    for (let i = 0; i < 2; i++) {
      const request = await session.pending('permission', seen);
      seen.push(request.request_id);
      assert.equal((await session.cli(['approve', request.request_id])).code, 0);
    }
    assert.equal((await session.exited()).code, 0, session.lead.stderr());
    assert.match(readFileSync(join(session.paths.workspace, 'notes.md'), 'utf8'), /build cache/);
    assert.equal((await session.member('alice'))?.status, 'shutdown');
  });

  describe('--sandbox-network', () => {
    /** A TCP server on loopback that counts its connections. */
    async function listen(): Promise<{ server: Server; port: number; connections: () => number }> {
      let count = 0;
      const server = createServer((socket) => {
        count++;
        // The client exits at once: a reset is expected.
        socket.on('error', () => undefined);
        socket.end();
      });
      await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
      const address = server.address();
      assert.ok(address && typeof address === 'object');
      return { server, port: address.port, connections: () => count };
    }

    const NET_RULES = [
      {
        name: 'netcheck connects to the port its task names',
        when: { agent: 'netcheck', turn: 1, last: 'PORT<<(?<port>\\d+)>>' },
        reply: {
          text: 'Connecting.',
          tool_uses: [
            {
              name: 'bash',
              input: {
                command:
                  "node -e \"require('net').connect({{last.port}}, '127.0.0.1').on('connect', () => { console.log('CONNECTED'); process.exit(0); }).on('error', (e) => { console.log('FAILED ' + e.code); process.exit(3); })\"",
                network: true,
              },
            },
          ],
        },
      },
      { name: 'netcheck is done', when: { agent: 'netcheck', after_tool: 'bash' }, reply: { text: 'Done.' } },
    ];

    for (const network of ['none', 'on'] as const) {
      test(`${network}: a teammate's connection to a server on 127.0.0.1 ${network === 'none' ? 'fails' : 'works'}`, async (t) => {
        const { server, port, connections } = await listen();
        t.after(() => new Promise<void>((resolve) => server.close(() => resolve())));
        const session = await TeamSession.start({ extraRules: NET_RULES, extraArgs: network === 'none' ? ['--sandbox-network', 'none'] : [] });
        t.after(() => session.cleanup());
        const plan = await session.pending('plan');
        assert.match((await session.store.roster.load())?.sandbox ?? '', network === 'none' ? /no network/ : /network only for approved commands/);
        const spawned = await session.cli(['spawn', 'netcheck', '--role', 'tester', '--prompt', `PORT<<${port}>>`]);
        assert.equal(spawned.code, 0, spawned.stderr);
        // Asking for the network asks the human; approved, the settings' `none` is still a ceiling.
        const asked = await waitFor(async () => (await session.requests()).find((r) => r.from === 'netcheck' && r.kind === 'permission'), "netcheck's request for the network", 20_000);
        assert.match(asked.summary, /if approved: may write the working directory, network on/);
        assert.equal((await session.cli(['approve', asked.request_id])).code, 0);
        const result = await waitFor(() => toolResults(session, 'netcheck').find((r) => r.name === 'bash'), "netcheck's bash result", 20_000);
        if (network === 'none') {
          assert.equal(result.isError, true, result.content);
          assert.match(result.content, /FAILED E(CONNREFUSED|NETUNREACH)/);
          assert.equal(connections(), 0, 'nothing reached the server');
        } else {
          assert.equal(result.isError, false, result.content);
          assert.match(result.content, /CONNECTED/);
          await waitFor(() => connections() === 1, 'the server to see the connection');
        }
        assert.equal((await session.cli(['reject', plan.request_id, '--reason', 'stop here'])).code, 0);
        await stopLead(session);
      });
    }
  });
});
