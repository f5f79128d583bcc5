import { after, test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { cleanup as cleanupInk } from 'ink-testing-library';
import { resolveModelSettings } from '../../src/model/settings.js';
import { LeadRuntime } from '../../src/lead/lead.js';
import { settingsPath } from '../../src/lead/project-settings.js';
import { openFileStore } from '../../src/store/file/file-store.js';
import { teamPaths } from '../../src/team/paths.js';
import { killAll } from '../helpers/children.js';
import { tempHome } from '../helpers/temp.js';
import { waitFor } from '../helpers/wait.js';
import { KEYS } from './terminal.js';
import { renderLiveRepl } from './live-repl.js';

after(killAll);

/** The lead writes one note each time it is asked: the same call, twice. */
const SCRIPT = {
  version: 1,
  rules: [
    { when: { agent: 'lead', after_tool: 'write_file' }, reply: { text: 'Note written.' } },
    { when: { agent: 'lead', last: 'Write the note' }, reply: { text: 'Writing it.', tool_uses: [{ name: 'write_file', input: { path: 'notes/a.md', content: 'one\n' } }] } },
    { when: { agent: 'lead' }, reply: { text: 'Noted.' } },
  ],
};

/** A lead with `script` behind a live REPL. */
async function startRepl(script: unknown) {
  const { home, cleanup } = tempHome('teams-ui-rule-');
  const paths = teamPaths(home, 'default');
  const team = openFileStore(paths);
  await team.roster.ensure();
  mkdirSync(paths.workspace, { recursive: true });
  const scriptFile = join(home, 'script.json');
  writeFileSync(scriptFile, JSON.stringify(script));
  const settings = resolveModelSettings({ offline: true, offlineScript: scriptFile }, {});
  const runtime = await LeadRuntime.start({ store: team, paths, settings, cwd: paths.workspace, permissionMode: 'default', planReviewer: 'human', graceMs: 3000 });
  return { paths, team, runtime, cleanup, ...(await renderLiveRepl(runtime)) };
}

test('a on the lead’s permission request, then p: an invalid rule is refused with the parser’s words; the fixed rule is saved, the call approved, and the same call later runs unasked', async () => {
  const { paths, team, runtime, cleanup, store, disconnect, screen, type, text } = await startRepl(SCRIPT);
  const permissions = async () => (await team.requests.list()).filter((r) => r.kind === 'permission');
  const written = () => (store.getState().transcript.filter((i) => i.kind === 'lead' && i.text === 'Note written.').length);
  try {
    text('Write the note');
    type(KEYS.enter);
    const asked = await waitFor(() => store.getState().queue.find((r) => r.kind === 'permission'), `the lead's write in the queue; screen:\n${screen()}`, 20_000);
    type(KEYS.tab);
    await waitFor(() => store.getState().focus === 'queue' || undefined, 'focus on the queue');
    type('a');
    await waitFor(() => screen().includes('a rule for the project: Edit(notes/**)') || undefined, `the choice with the suggestion; screen:\n${screen()}`);
    type('p');
    await waitFor(() => store.getState().rule?.stage === 'edit' || undefined, 'the rule editable');
    // Break it, see the parser's complaint, then mend it.
    type(KEYS.backspace);
    type(KEYS.enter);
    await waitFor(() => screen().includes("invalid rule: unbalanced parentheses in 'Edit(notes/**'") || undefined, `the parser's error; screen:\n${screen()}`);
    assert.equal(store.getState().rule?.text, 'Edit(notes/**', 'the text is kept for correction');
    assert.equal((await team.requests.get(asked.request_id))?.state, 'pending', 'an invalid rule approves nothing');
    text(')');
    type(KEYS.enter);
    await waitFor(async () => (await team.requests.get(asked.request_id))?.state === 'approved' || undefined, 'the request approved');
    assert.deepEqual(JSON.parse(readFileSync(settingsPath(paths.home), 'utf8')), { permissions: { allow: ['Edit(notes/**)'], deny: [] } });
    await waitFor(() => written() === 1 || undefined, `the first write done; screen:\n${screen()}`, 20_000);
    assert.match(screen(), /added allow rule Edit\(notes\/\*\*\)/);

    // The same call again: the rule allows it, nothing is asked.
    text('Write the note');
    type(KEYS.enter);
    await waitFor(() => written() === 2 || undefined, `the second write done; screen:\n${screen()}`, 20_000);
    assert.equal((await permissions()).length, 1, 'the second call was not asked about');
    assert.equal(readFileSync(join(paths.workspace, 'notes/a.md'), 'utf8'), 'one\n');
  } finally {
    disconnect();
    cleanupInk();
    await runtime.stop();
    cleanup();
  }
});

test('a rule saved for a command that asked for the network is a network rule too: it grants what the approval granted', async () => {
  const online = {
    version: 1,
    rules: [
      { when: { agent: 'lead', after_tool: 'bash' }, reply: { text: 'Fetched.' } },
      { when: { agent: 'lead' }, reply: { text: 'Fetching.', tool_uses: [{ name: 'bash', input: { command: 'echo fetched', network: true } }] } },
    ],
  };
  const { paths, runtime, cleanup, store, disconnect, screen, type, text } = await startRepl(online);
  try {
    text('Fetch it');
    type(KEYS.enter);
    await waitFor(() => store.getState().queue.find((r) => r.kind === 'permission'), `the lead's command in the queue; screen:\n${screen()}`, 20_000);
    type(KEYS.tab);
    await waitFor(() => store.getState().focus === 'queue' || undefined, 'focus on the queue');
    type('a');
    await waitFor(() => screen().includes('a rule for the project: Bash(echo fetched)') || undefined, `the suggestion; screen:\n${screen()}`);
    type('p');
    await waitFor(() => store.getState().rule?.stage === 'edit' || undefined, 'the rule editable');
    type(KEYS.enter);
    await waitFor(() => screen().includes('added allow and network rule Bash(echo fetched)') || undefined, `the rule saved; screen:\n${screen()}`, 20_000);
    assert.deepEqual(JSON.parse(readFileSync(settingsPath(paths.home), 'utf8')), { permissions: { allow: ['Bash(echo fetched)'], deny: [], network: ['Bash(echo fetched)'] } });
  } finally {
    disconnect();
    cleanupInk();
    await runtime.stop();
    cleanup();
  }
});
