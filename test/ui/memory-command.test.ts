import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { memoryList } from '../../src/ui/memory-command.js';
import { parseCommand } from '../../src/ui/commands.js';
import { tempHome } from '../helpers/temp.js';

const temp = tempHome('teams-memory-');
test.after(() => temp.cleanup());

test('/memory: the project instructions from the working directory up, and the agent definitions with those that cannot be used', () => {
  assert.deepEqual(parseCommand('/memory'), { ok: true, command: { name: 'memory' } });
  assert.deepEqual(parseCommand('/memory all'), { ok: false, error: '/memory takes no arguments' });
  const repo = join(temp.home, 'repo');
  const home = join(repo, '.teams');
  mkdirSync(join(repo, '.git'), { recursive: true });
  mkdirSync(join(home, 'agents'), { recursive: true });
  const text = () => {
    const [item] = memoryList(repo, home);
    assert.equal(item?.kind, 'output');
    return item?.kind === 'output' ? item.text : '';
  };
  assert.equal(
    text(),
    "Project instructions, in every agent's system prompt from its start (outermost first):\n  none: no AGENTS.md or CLAUDE.md from here up to the repository's root\n" +
      `Agent definitions, listed in the lead's prompt (${join(home, 'agents')}):\n  none`,
  );
  writeFileSync(join(repo, 'AGENTS.md'), 'Run npm test before you report.');
  writeFileSync(join(home, 'agents', 'reviewer.md'), '---\nname: reviewer\ndescription: Reviews changes\n---\nYou review.\n');
  writeFileSync(join(home, 'agents', 'broken.md'), '---\nname: broken\n---\nx\n');
  const shown = text();
  assert.match(shown, new RegExp(`\\n  ${join(repo, 'AGENTS.md')}  31 B\\n`));
  assert.match(shown, /\n {2}reviewer {2}Reviews changes\n {2}cannot be used: .*broken\.md: description: /);
});
