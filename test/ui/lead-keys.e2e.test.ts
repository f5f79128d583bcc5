import { describe, test } from 'node:test';
import { join } from 'node:path';
import { openFileStore } from '../../src/store/file/file-store.js';
import { teamPaths } from '../../src/team/paths.js';
import { REPO_ROOT } from '../helpers/children.js';
import { waitFor } from '../helpers/wait.js';
import { hasTmux, Terminal, terminalInTempHome } from './tmux.js';
import { rmSync, writeFileSync } from 'node:fs';

/** The session id /status names now. */
const SESSION = /session\s+(session-[a-z0-9]{10})/;

describe("the lead's keys and commands in a real terminal (tmux), offline model", { skip: hasTmux ? false : 'tmux is not installed' }, () => {
  const { home, terminal, pids } = terminalInTempHome('teams-lead-keys-');
  const team = openFileStore(teamPaths(home, 'default'));

  test('Shift+Tab cycles the mode in the header, typing nothing; /cost, /status and /clear answer', async () => {
    const stderr = join(home, 'teams.stderr');
    terminal.stderrPath = stderr;
    terminal.start(`env -u TEAMS_HOME -u TEAMS_TEAM node ${join(REPO_ROOT, 'bin', 'teams.js')} --home ${home} --offline --grace-ms 3000 2>${stderr}; echo "teams exited with $?"; sleep 300`);
    await terminal.shows('mode default (Shift+Tab)');
    const lead = await waitFor(async () => (await team.roster.load())?.members.find((m) => m.name === 'lead')?.pid ?? undefined, 'the lead in the roster');
    pids.push(lead);

    // Typed text stays where it is: Shift+Tab changes the mode, not the line.
    terminal.text('abc');
    terminal.keys('BTab');
    await terminal.shows('mode accept-edits (Shift+Tab)');
    await terminal.shows("the lead's permission mode: accept-edits");
    terminal.keys('BTab');
    await terminal.shows('mode plan (Shift+Tab)');
    await terminal.shows("the lead's permission mode: plan (its commands cannot write)");
    terminal.keys('BTab');
    await terminal.shows('mode default (Shift+Tab)');
    terminal.text('d');
    await terminal.shows('› abcd');
    terminal.keys('C-u');

    terminal.text('/cost');
    terminal.keys('Enter');
    await terminal.shows(/agent\s+tokens\s+input\s+output\s+cache read\s+cache write\s+cached\s+cost/);
    await terminal.shows(/session session-[a-z0-9]{10}: 0 tokens, \$0\.0000/);

    terminal.text('/status');
    terminal.keys('Enter');
    await terminal.shows(/mode\s+default \(Shift\+Tab cycles/);
    const before = SESSION.exec(terminal.screen())?.[1];
    if (before === undefined) throw new Error(`no session in /status: ${terminal.screen()}`);

    terminal.text('/clear');
    terminal.keys('Enter');
    await terminal.shows(/the lead starts a fresh conversation in session session-[a-z0-9]{10}; teammates keep running/);
    terminal.text('/status');
    terminal.keys('Enter');
    await terminal.shows(SESSION);
    const now = SESSION.exec(terminal.screen())?.[1];
    if (now === undefined || now === before) throw new Error(`/clear kept session ${before}: ${terminal.screen()}`);

    await terminal.quit();
    await terminal.shows('teams exited with 0');
  });

  test("the lead starts in the settings' permissions.defaultMode, Claude Code's names too; a project's bypass is passed over with a line", async () => {
    const settings = join(home, 'settings.json');
    for (const [defaultMode, shown] of [['bypassPermissions', 'default'], ['acceptEdits', 'accept-edits']] as const) {
      writeFileSync(settings, JSON.stringify({ permissions: { defaultMode } }));
      const again = new Terminal(join(home, `tmux-${defaultMode}.sock`));
      const stderr = join(home, `${defaultMode}.stderr`);
      again.stderrPath = stderr;
      again.start(`env -u TEAMS_HOME -u TEAMS_TEAM node ${join(REPO_ROOT, 'bin', 'teams.js')} --home ${home} --offline --grace-ms 3000 2>${stderr}; echo "teams exited with $?"; sleep 300`);
      try {
        await again.shows(`mode ${shown} (Shift+Tab)`);
        if (defaultMode === 'bypassPermissions') await again.shows(/permissions\.defaultMode "bypassPermissions" passed over: approvals are/);
        const lead = await waitFor(async () => (await team.roster.load())?.members.find((m) => m.name === 'lead' && m.status !== 'shutdown')?.pid ?? undefined, 'the lead in the roster');
        pids.push(lead);
        await again.quit();
        await again.shows('teams exited with 0');
      } finally {
        again.kill();
      }
    }
    rmSync(settings);
  });
});
