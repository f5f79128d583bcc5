import { after, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { killAll } from '../helpers/children.js';
import { TeamSession } from './session.js';

after(killAll);

/**
 * The lead writes a file itself: in accept-edits that runs unasked, in default it asks the
 * human. What happens to the write is what mode the lead really started in.
 */
const LEAD_WRITES_NOTES = [
  {
    name: 'lead: write notes.md itself',
    when: { agent: 'lead', turn: 1 },
    reply: { text: 'Writing the notes myself.', tool_uses: [{ name: 'write_file', input: { path: 'notes.md', content: '# Notes\n' } }] },
  },
  { name: 'lead: told no', when: { agent: 'lead', after_tool: 'write_file', last: 'Permission denied' }, reply: { text: 'No notes, then.' } },
  { name: 'lead: done', when: { agent: 'lead', after_tool: 'write_file' }, reply: { text: 'The notes are written.' } },
];

/** `teams run` in a state root whose project settings (`<home>/settings.json`) say `defaultMode`. */
async function startWithProjectMode(defaultMode: string): Promise<TeamSession> {
  const prepared = TeamSession.prepare({ prompt: 'Write the notes yourself', extraRules: LEAD_WRITES_NOTES });
  writeFileSync(join(prepared.home, 'settings.json'), JSON.stringify({ permissions: { defaultMode } }));
  return prepared.start();
}

describe("teams run starts the lead in the settings' permissions.defaultMode", () => {
  test('a project\'s defaultMode "acceptEdits" (Claude Code\'s name): the lead\'s write runs unasked', async (t) => {
    const session = await startWithProjectMode('acceptEdits');
    t.after(() => session.cleanup());
    assert.equal((await session.exited()).code, 0, session.lead.stderr());
    assert.equal(existsSync(join(session.workdir, 'notes.md')), true, `notes.md written; lead stdout: ${session.lead.stdout().slice(-800)}`);
    assert.deepEqual((await session.requests()).filter((r) => r.kind === 'permission'), [], 'nobody was asked');
    assert.match(session.lead.stdout(), /The notes are written\./);
  });

  test('a project\'s defaultMode "bypassPermissions" is refused with a line saying why and where; the lead runs in default and asks', async (t) => {
    const session = await startWithProjectMode('bypassPermissions');
    t.after(() => session.cleanup());
    // In default mode the write waits for the human: asking at all shows bypass was not taken.
    const request = await session.pending('permission');
    assert.equal(request.from, 'lead');
    assert.match(request.summary, /^write_file/);
    assert.equal(existsSync(join(session.workdir, 'notes.md')), false, 'nothing written before the decision');
    const problems = session.events().filter((e) => e.type === 'problem').map((e) => String(e.text));
    const settings = join(session.home, 'settings.json');
    assert.ok(
      problems.some((text) => text.startsWith(`${settings}: permissions.defaultMode "bypassPermissions" passed over: approvals are turned off only by the user's own settings or --permission-mode bypass`)),
      `the passed-over line among teams run's problems: ${JSON.stringify(problems)}`,
    );
    const rejected = await session.cli(['reject', request.request_id, '--reason', 'not now']);
    assert.equal(rejected.code, 0, rejected.stderr);
    assert.equal((await session.exited()).code, 0, session.lead.stderr());
    assert.equal(existsSync(join(session.workdir, 'notes.md')), false, 'the rejected write never ran');
  });

  test('a defaultMode that names no mode: teams run says which file and field, and exits without starting the lead', async (t) => {
    const session = await startWithProjectMode('yolo');
    t.after(() => session.cleanup());
    const { code } = await session.exited();
    assert.notEqual(code, 0);
    const line = `${join(session.home, 'settings.json')}: permissions.defaultMode: not a mode`;
    assert.ok(session.lead.stderr().includes(line), `'${line}' in: ${session.lead.stderr()}`);
    assert.equal(existsSync(join(session.workdir, 'notes.md')), false);
    assert.equal((await session.member('lead'))?.status, 'registered', 'the lead never recorded itself as running');
  });
});
