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
