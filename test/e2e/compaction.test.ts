import { after, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { killAll } from '../helpers/children.js';
import { waitFor } from '../helpers/wait.js';
import { TeamSession } from './session.js';

after(killAll);

const WINDOW = 30_000;
const STEPS = 40;
const SUMMARY = 'SUMMARY-E2E-91';

/** One step of the worker's task: counts itself, logs whether the model saw the summary, prints ~1,750 tokens. */
const STEP_SCRIPT = [
  'n=$(( $(cat count 2>/dev/null || echo 0) + 1 ))',
  'echo "$n" > count',
  'echo "$n $1" >> steps.log',
  'echo "step $n done"',
  "head -c 7000 /dev/zero | tr '\\0' x",
  'echo',
].join('\n');

const step = (tag: string) => ({ name: 'bash', input: { command: `sh step.sh ${tag}` } });

/**
 * A worker that runs the step 40 times in one turn, its output far more than a 30k window.
 * Which command it runs depends on whether its first user message holds the summary, so the
 * steps' log records, call by call, whether the model's request carried it.
 */
const RULES: unknown[] = [
  { name: 'summarise for a compaction', when: { system: "^You summarise an agent's conversation" }, reply: { text: `${SUMMARY}: you ran step.sh again and again; go on until step ${STEPS}.` } },
  { name: 'lead: spawn the worker', when: { agent: 'lead', turn: 1 }, reply: { text: 'Starting a worker.', tool_uses: [{ name: 'spawn_teammate', input: { name: 'worker', role: 'counter', prompt: `Run sh step.sh until it says step ${STEPS} done.` } }] } },
  { name: 'worker: report at the last step', when: { agent: 'worker', after_tool: 'bash', last: `step ${STEPS} done` }, reply: { text: 'All done.', tool_uses: [{ name: 'send_message', input: { to: 'lead', content: `Report: all ${STEPS} steps done.` } }] } },
  { name: 'worker: next step, with the summary in view', when: { agent: 'worker', after_tool: 'bash', first: SUMMARY }, reply: { text: 'Next step.', tool_uses: [step('with-summary')] } },
  { name: 'worker: next step', when: { agent: 'worker', after_tool: 'bash' }, reply: { text: 'Next step.', tool_uses: [step('no-summary')] } },
  { name: 'worker: first step', when: { agent: 'worker', turn: 1 }, reply: { text: 'Starting.', tool_uses: [step('no-summary')] } },
];

describe('compaction, end to end', () => {
  test(`a worker with a ${WINDOW}-token window runs past it several times and finishes; every call after a compaction carries the summary`, async (t) => {
    const prepared = TeamSession.prepare({
      extraRules: RULES,
      // The offline server refuses what the real API would: a request longer than the window.
      scriptFields: { context_window: WINDOW },
      extraArgs: ['--context-window', String(WINDOW), '--permission-mode', 'bypass', '--no-sandbox'],
      prompt: 'Count to forty with a worker',
    });
    writeFileSync(join(prepared.workdir, 'step.sh'), STEP_SCRIPT);
    const session = await prepared.start();
    t.after(() => session.cleanup());

    const exit = await waitFor(async () => (session.lead.process.exitCode === null ? undefined : session.exited()), `the run to finish; lead stderr: ${session.lead.stderr().slice(-800)}`, 120_000);
    assert.equal(exit.code, 0, session.lead.stderr());

    const steps = readFileSync(join(session.workdir, 'steps.log'), 'utf8').trim().split('\n');
    assert.equal(steps.length, STEPS);
    const firstWith = steps.findIndex((line) => line.endsWith('with-summary'));
    assert.ok(firstWith > 0, `the summary first appears after some steps: ${steps.join(', ')}`);
    assert.deepEqual(steps.slice(firstWith).filter((line) => !line.endsWith(' with-summary')), [], 'once compacted, every call carries the summary');

    const compactions = (await session.audit()).flatMap((e) => (e.event === 'compacted' ? [e] : []));
    const worker = compactions.filter((c) => c.agent === 'worker');
    assert.ok(worker.length >= 3, `the worker compacted ${worker.length} times`);
    for (const c of worker) {
      assert.equal(c.reason, 'threshold');
      assert.ok(c.before >= 0.8 * WINDOW && c.before <= WINDOW && c.after < c.before / 2, `${c.before} → ${c.after}`);
    }
    // The lead heard of each one and printed it.
    const shown = session.events().filter((e) => e.type === 'teammate_compacted' && e.name === 'worker');
    assert.equal(shown.length, worker.length);
    const member = await session.member('worker');
    assert.equal(member?.status, 'shutdown');
    assert.doesNotMatch(session.lead.stdout(), /prompt is too long/);
  });
});
