import { after, test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { killAll } from '../helpers/children.js';
import { waitFor } from '../helpers/wait.js';
import { TeamSession } from './session.js';

after(killAll);

// The offline model answers by its system prompt: the lead spawns by agent name only when its
// prompt lists the definition, and the teammate says the role's code word only when its own
// prompt carries the definition's body.
const ROLE_CODE = 'HERON-17';
const RULES = [
  {
    name: 'lead: spawn the listed reviewer',
    when: { agent: 'lead', turn: 1, system: '- reviewer: Reviews changes for bugs' },
    reply: { text: 'Starting the reviewer.', tool_uses: [{ name: 'spawn_teammate', input: { agent: 'reviewer', prompt: 'Review the project.' } }] },
  },
  // The script, like a real model, calls only tools it is offered: this rule applies only if the
  // reviewer had list_teammates, which its definition's tools leave out.
  {
    name: 'reviewer: a tool its definition leaves out',
    when: { agent: 'reviewer', turn: 1, system: ROLE_CODE },
    reply: { text: 'I was offered list_teammates.', tool_uses: [{ name: 'list_teammates', input: {} }] },
  },
  {
    name: "reviewer: its role's prompt",
    when: { agent: 'reviewer', turn: 1, system: ROLE_CODE },
    reply: { text: `Reviewer here: ${ROLE_CODE}.` },
  },
];

test("spawn_teammate{agent} from the lead's listed definitions: the teammate's system prompt carries the role, its tools are the definition's", async (t) => {
  const prepared = TeamSession.prepare({ layout: 'apart', prompt: 'Begin', extraRules: RULES });
  mkdirSync(join(prepared.home, 'agents'), { recursive: true });
  writeFileSync(
    join(prepared.home, 'agents', 'reviewer.md'),
    `---\nname: reviewer\ndescription: Reviews changes for bugs\ntools: Read, Bash\n---\nYou are the reviewer. Begin every report with ${ROLE_CODE}.\n`,
  );
  // A broken one beside it is left out (teams agents and /memory say why); the others are listed and used.
  writeFileSync(join(prepared.home, 'agents', 'broken.md'), '---\nname: broken\ntools: Teleport\n---\nBody\n');
  const session = await prepared.start();
  t.after(() => session.cleanup());
  const turns = () => JSON.stringify(session.events());
  await waitFor(() => turns().includes("Spawned reviewer as agent 'reviewer' (reviewer,") || undefined, "the lead's spawn of the reviewer by agent name");
  const logs = async () => (await session.cli(['logs', 'reviewer'])).stdout;
  await waitFor(async () => (await logs()).includes(`Reviewer here: ${ROLE_CODE}.`) || undefined, "the reviewer's words from its role prompt, without list_teammates");
  assert.ok(!(await logs()).includes('I was offered list_teammates.'));
  const status = await session.cli(['status', '--json']);
  const roster = JSON.parse(status.stdout) as { members: { name: string; role: string; agent?: string }[] };
  const reviewer = roster.members.find((m) => m.name === 'reviewer');
  assert.equal(reviewer?.role, 'reviewer', status.stdout);
  // The run ends by itself once the team is quiet, and is gone before its state root is removed.
  assert.equal((await session.exited()).code, 0, session.lead.stderr());
});
