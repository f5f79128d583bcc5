import { after, test } from 'node:test';
import assert from 'node:assert/strict';
import { TEAMMATE_ENTRY } from '../../src/process/supervisor.js';
import { killAll, spawnNode } from '../helpers/children.js';
import { tempHome } from '../helpers/temp.js';

after(killAll);

const ARGS = ['--team', 'default', '--permission-mode', 'default', '--lead-key', 'k', '--sandbox', '{"kind":"off"}', '--session', 'session-0123456789', 'alice'];

test('a teammate refuses to start on --rules it cannot read, or none, rather than run without them', async () => {
  const { home, cleanup } = tempHome('teams-rules-arg-');
  try {
    for (const [rules, message] of [
      [['--rules', 'not json'], /rules: not permission rules/],
      [['--rules', '{"allow":"bash"}'], /rules: not permission rules: allow: /],
      [[], /rules: /],
    ] as const) {
      const child = spawnNode(TEAMMATE_ENTRY, ['--home', home, ...rules, ...ARGS], { stdio: ['ignore', 'pipe', 'pipe', 'ipc'] });
      assert.equal((await child.exited).code, 2, child.stderr());
      assert.match(child.stderr(), message);
    }
  } finally {
    cleanup();
  }
});
