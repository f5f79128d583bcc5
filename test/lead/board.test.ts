import { after, test } from 'node:test';
import assert from 'node:assert/strict';
import { appendFileSync } from 'node:fs';
import { LeadBoard } from '../../src/lead/board.js';
import { LeadStepper } from '../../src/lead/stepper.js';
import { initialLeadState } from '../../src/lead/state.js';
import { TeamBus } from '../../src/team/bus.js';
import { teamPaths } from '../../src/team/paths.js';
import { filesOf, storeOf } from '../helpers/store.js';
import { tempHome } from '../helpers/temp.js';
import { waitFor } from '../helpers/wait.js';
import { addMember } from '../../src/store/roster-changes.js';
import type { Envelope } from '../../src/protocol/messages.js';

const temp = tempHome('teams-lead-board-');
after(temp.cleanup);

test("the lead's board watch reports each set-aside line of the journal once, the ones there at its start too", async () => {
  const store = storeOf(temp.home);
  await store.roster.ensure();
  await store.tasks.create({ subject: 'first' }, 'lead');
  const path = filesOf(teamPaths(temp.home, 'default')).tasks;
  appendFileSync(path, 'garbage before the lead\n');
  const reported: string[] = [];
  // The board reads, the lead's step decides what is news: both as the lead has them.
  const stepper = new LeadStepper(initialLeadState('human'));
  stepper.runEffectsWith((effect) => void (effect.type === 'problem' && reported.push(`${effect.what}: ${effect.reason}`)));
  const board = new LeadBoard(store, new TeamBus(store), (input) => stepper.step(input), () => []);
  const watch = await board.watch();
  try {
    await waitFor(() => reported.length >= 1, 'the line already there to be reported');
    appendFileSync(path, 'garbage while it watches\n');
    await waitFor(() => reported.length >= 2, 'the new line to be reported');
    // More changes to the board bring more looks: nothing is reported again.
    await store.tasks.create({ subject: 'second' }, 'lead');
    await store.tasks.create({ subject: 'third' }, 'lead');
    await waitFor(async () => (await store.tasks.list()).length === 3, 'the tasks to be on the board');
    const marker = 'garbage after the tasks';
    appendFileSync(path, `${marker}\n`);
    await waitFor(() => reported.length >= 3, 'the last line to be reported');
    assert.equal(reported.length, 3, reported.join('\n'));
    reported.forEach((text, index) => assert.match(text, new RegExp(`^task board ${path} line \\d+: set aside: not valid JSON`), `report ${index}`));
    assert.equal(new Set(reported).size, 3, 'each line once');
  } finally {
    await watch.close();
    await store.close();
  }
});

test("a teammate's exit keeps its own (spawn) task for it, pending, while the other tasks it held are freed; a respawn takes its own task back under the same id", async () => {
  const home = tempHome('teams-lead-own-task-');
  const store = storeOf(home.home);
  try {
    await store.roster.ensure();
    await addMember(store.roster, { name: 'alice', role: 'coder' });
    const stepper = new LeadStepper(initialLeadState('human'));
    stepper.runEffectsWith(() => undefined);
    const bus = new TeamBus(store);
    const sent: Envelope[] = [];
    bus.sent.subscribe((envelope) => sent.push(envelope));
    const board = new LeadBoard(store, bus, (input) => stepper.step(input), () => []);
    const own = await board.spawnTask('alice', 'Write the notes', 'Write notes.md');
    const other = await store.tasks.create({ subject: 'Review' }, 'lead');
    assert.ok((await store.tasks.claim('alice', other.id)).ok);

    await board.teammateExited('alice', undefined, own.id);
    const kept = await store.tasks.get(own.id);
    assert.deepEqual([kept?.status, kept?.owner, kept?.notes?.at(-1)?.text], ['pending', 'alice', 'alice shut down before closing it; back to pending, kept for alice']);
    const freed = await store.tasks.get(other.id);
    assert.deepEqual([freed?.status, freed?.owner], ['pending', undefined]);
    // The lead's model is told of both, by id; its own task's note says how to go on.
    const told = sent.flatMap((e) => (e.type === 'task_notification' ? [[e.task_id, e.status, e.result ?? '']] : []));
    assert.deepEqual(told.map(([id, status]) => [id, status]), [[own.id, 'stopped'], [other.id, 'stopped']]);
    assert.match(told[0]?.[2] ?? '', /kept for alice: respawn alice to go on with it/);

    const back = await board.respawnTask('alice', [], own.id);
    assert.deepEqual([back.task.id, back.task.status, back.task.owner], [own.id, 'in_progress', 'alice']);
    assert.match(back.description, new RegExp(`Your own task ${own.id} is given back to you, in progress`));
    assert.equal((await store.tasks.list()).length, 2, 'no new task for the respawn');

    // Once closed, it is not given back: the respawn gets a task of its own, as before.
    assert.ok((await store.tasks.update(own.id, { op: 'set', status: 'completed', result: 'done' }, 'alice')).ok);
    await board.teammateExited('alice', undefined, own.id);
    assert.equal((await store.tasks.get(own.id))?.status, 'completed', 'a completed own task stays completed after the exit');
    const fresh = await board.respawnTask('alice', [], own.id);
    assert.notEqual(fresh.task.id, own.id);
    assert.deepEqual([fresh.task.subject, fresh.task.status, fresh.task.owner], ['respawned: go on with your task', 'in_progress', 'alice']);
  } finally {
    await store.close();
    home.cleanup();
  }
});
