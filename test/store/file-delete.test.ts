import { after, test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, mkdirSync, readdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { teamPaths } from '../../src/team/paths.js';
import { storeOf } from '../helpers/store.js';
import { tempHome } from '../helpers/temp.js';
import { textMessage } from '../fixtures/mailbox-envelopes.js';

const temp = tempHome('teams-file-delete-');
after(temp.cleanup);

test("deleteTeam removes the team's directory when the store's files were all it held", async () => {
  const store = storeOf(temp.home, 'gone');
  await store.roster.ensure();
  await store.mailboxes.deliver('bob', textMessage('lead', 'bob', 'hi'));
  await store.agentLogs.append('bob', ['a line']);
  await store.tasks.create({ subject: 'a task' }, 'lead');
  await store.deleteTeam();
  assert.equal(existsSync(teamPaths(temp.home, 'gone').root), false);
  await store.close();
});

test("deleteTeam leaves what is this machine's and not the store's (the workspace, the control token) and keeps it out of git", async () => {
  const paths = teamPaths(temp.home, 'kept');
  const store = storeOf(temp.home, 'kept');
  await store.roster.ensure();
  await store.audit.append({ event: 'member', name: 'bob', change: 'added (role tester)' });
  mkdirSync(join(paths.workspace, 'src'), { recursive: true });
  writeFileSync(join(paths.workspace, 'src', 'work.ts'), 'work\n');
  writeFileSync(paths.controlToken, 'token\n');
  await store.deleteTeam();
  assert.deepEqual(readdirSync(paths.root).sort(), ['.gitignore', 'control.token', 'workspace']);
  assert.equal(existsSync(join(paths.workspace, 'src', 'work.ts')), true);
  await store.close();
});
