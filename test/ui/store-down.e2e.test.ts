import { after, describe, test } from 'node:test';
import { join } from 'node:path';
import { isProcessAlive } from '../../src/lib/file-lock.js';
import { openRedisStore } from '../../src/store/redis/index.js';
import { REPO_ROOT } from '../helpers/children.js';
import { startRedisServer, type RedisServer } from '../helpers/redis-server.js';
import { tempHome } from '../helpers/temp.js';
import { waitFor } from '../helpers/wait.js';
import { endTerminal, hasTmux, Terminal } from './tmux.js';

// Nothing may write over Ink's frame: a team store (Redis) that goes down while the REPL runs is
// said in the transcript and held in the header until it is back, in a real terminal.

describe('the REPL on a Redis team store that goes down and comes back (tmux)', { skip: hasTmux ? false : 'tmux is not installed' }, () => {
  const { home, cleanup } = tempHome('teams-store-down-e2e-');
  const terminal = new Terminal(join(home, 'tmux.sock'));
  const pids: number[] = [];
  let server: RedisServer | undefined;
  after(async () => {
    endTerminal(terminal, pids);
    await server?.close();
    cleanup();
  });

  test('the header says the store is down while it is, a line says so each way, and the REPL then quits cleanly', async () => {
    server = await startRedisServer();
    const stderr = join(home, 'teams.stderr');
    terminal.stderrPath = stderr;
    // The store by environment, as a user with a password in the URL would give it.
    terminal.start(`env -u TEAMS_HOME -u TEAMS_TEAM TEAMS_STORE=${server.url} node ${join(REPO_ROOT, 'bin', 'teams.js')} --home ${home} --offline 2>${stderr}; echo "teams exited with $?"; sleep 300`);
    await terminal.shows('view lead (Shift+↑/↓)');
    const store = await openRedisStore(server.url, 'default');
    const lead = await waitFor(async () => (await store.roster.load())?.members.find((m) => m.name === 'lead')?.pid ?? undefined, "the lead's pid");
    await store.close();
    pids.push(lead);

    await server.stop();
    await terminal.shows(/Team store down: Redis at redis:\/\/127\.0\.0\.1:\d+ is unreachable/);
    await server.start();
    await terminal.shows('the team store is reachable again; carrying on');
    await waitFor(() => !terminal.screen().includes('Team store down') || undefined, 'the header to stop saying the store is down');

    await terminal.quit();
    await terminal.shows('teams exited with 0');
    await waitFor(() => !isProcessAlive(lead) || undefined, 'the lead to be gone');
  });
});
