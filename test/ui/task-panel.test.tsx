import { afterEach, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { cleanup, render } from 'ink-testing-library';
import { createRepl } from '../../src/ui/app.js';
import { TaskPanel } from '../../src/ui/components/TaskPanel.js';
import { interpretKey } from '../../src/ui/keys.js';
import { reduce } from '../../src/ui/state/reduce.js';
import type { Task } from '../../src/store/tasks.js';
import { waitFor } from '../helpers/wait.js';
import { FakeRuntime } from './fake-runtime.js';
import { key, member, state, task } from './fixtures.js';
import { plain } from './terminal.js';

afterEach(() => cleanup());

const board = [task('1', 'completed', { owner: 'alice', subject: 'Write the tokenizer' }), task('2', 'in_progress', { owner: 'bob', subject: 'Test it' }), task('3', 'pending', { blocked_by: ['2'], subject: 'Release' })];

describe('the task panel (Ctrl+T)', () => {
  test('open tasks first, each with status, owner and what blocks it; an empty board says how to fill it', () => {
    const text = plain(render(<TaskPanel tasks={board} />).lastFrame());
    assert.match(text, /Tasks \(2 open, 1 done\)/);
    const rows = text.split('\n').filter((line) => /#\d/.test(line));
    assert.match(rows[0] ?? '', /#2\s+in_progress\s+bob\s+Test it/);
    assert.match(rows[1] ?? '', /#3\s+pending\s+-\s+blocked by 2\s+Release/);
    assert.match(rows[2] ?? '', /#1\s+completed\s+alice\s+Write the tokenizer/);
    assert.match(plain(render(<TaskPanel tasks={[]} />).lastFrame()), /The board is empty/);
  });

  test('Ctrl+T toggles it; the board comes from the store\'s watch', async () => {
    assert.deepEqual(interpretKey(state(), 't', key({ ctrl: true })).actions, [{ type: 'toggle_tasks' }]);
    assert.equal(reduce(state(), { type: 'toggle_tasks' }).tasksShown, true);
    assert.deepEqual(reduce(state(), { type: 'tasks', tasks: board }).tasks, board);

    const runtime = new FakeRuntime();
    let deliver: ((tasks: Task[]) => void) | undefined;
    runtime.store.tasks.watch = async (listener) => {
      deliver = listener;
      return { close: async () => undefined };
    };
    const repl = createRepl(runtime, state({ members: [member('lead'), member('alice', 'working'), member('bob', 'working')] }));
    const disconnect = repl.controller.connect(60_000);
    const view = render(repl.element);
    try {
      const watching = await waitFor(() => deliver, 'the board to be watched');
      watching(board);
      assert.equal(repl.store.getState().tasks, board);
      assert.doesNotMatch(plain(view.lastFrame()), /Tasks \(/);
      // The team panel reads the same board: bob's row names his task in progress.
      await waitFor(() => /^bob\s.*#2 Test it/m.test(plain(view.lastFrame())) || undefined, "bob's current task in the team panel");
      view.stdin.write('\u0014');
      await waitFor(() => plain(view.lastFrame()).includes('Tasks (2 open, 1 done)') || undefined, 'the panel');
      view.stdin.write('\u0014');
      await waitFor(() => !plain(view.lastFrame()).includes('Tasks (') || undefined, 'the panel hidden');
    } finally {
      disconnect();
    }
  });
});
