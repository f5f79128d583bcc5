import { after, test } from 'node:test';
import assert from 'node:assert/strict';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { killAll } from '../helpers/children.js';
import { waitFor } from '../helpers/wait.js';
import { TeamSession } from './session.js';

after(killAll);

// The offline model answers by its system prompt: only an agent whose prompt carries the
// project's AGENTS.md says the code word it holds.
const CODE = 'PELICAN-42';
const RULES = [
  { name: 'lead: read the project instructions', when: { agent: 'lead', turn: 1, system: CODE }, reply: { text: `The project says ${CODE}.`, tool_uses: [{ name: 'spawn_teammate', input: { name: 'alice', role: 'coder', prompt: 'Say what the project says.' } }] } },
  { name: 'teammate: read the project instructions', when: { agent: 'teammate', turn: 1, system: CODE }, reply: { text: `Alice read ${CODE} too.` } },
];

test("AGENTS.md in the working directory reaches the lead's and each teammate's system prompt", async (t) => {
  const prepared = TeamSession.prepare({ layout: 'apart', prompt: 'Begin', extraRules: RULES });
  writeFileSync(join(prepared.workdir, 'AGENTS.md'), `# House rules\n\nEvery agent says ${CODE} first.\n`);
  const session = await prepared.start();
  t.after(() => session.cleanup());
  const turns = () => JSON.stringify(session.events());
  await waitFor(() => turns().includes(`The project says ${CODE}.`) || undefined, "the lead's words from AGENTS.md");
  await waitFor(async () => (await session.cli(['logs', 'alice'])).stdout.includes(`Alice read ${CODE} too.`) || undefined, "alice's words from AGENTS.md");
  // The run ends by itself once the team is quiet, and is gone before its state root is removed.
  assert.equal((await session.exited()).code, 0, session.lead.stderr());
});
