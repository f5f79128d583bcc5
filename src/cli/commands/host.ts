import type { Command } from 'commander';
import { hostname } from 'node:os';
import { resolve } from 'node:path';
import { setTimeout as delay } from 'node:timers/promises';
import { errorMessage } from '../../lib/index.js';
import { HostRunner, hostKey, parseTrustToken } from '../../host/index.js';
import { childModelEnv, openModel, resolveModelSettings } from '../../model/index.js';
import { agentNameProblem } from '../../protocol/index.js';
import { STORE_ENV } from '../../store/index.js';
import { refuseWorkdirInStateRoot } from '../../team/index.js';
import type { ContextFor } from '../context.js';
import { UsageError } from '../errors.js';

/** This machine's name as a host name: lowercase, the characters a name may hold, a letter first. */
function defaultHostName(): string {
  const name = hostname().toLowerCase().split('.')[0]?.replace(/[^a-z0-9_-]/g, '-').slice(0, 32) ?? '';
  return /^[a-z]/.test(name) ? name : `host-${name}`.slice(0, 32);
}

/** `teams host`: run teammates for a team's lead on this machine until Ctrl+C or SIGTERM. */
export function registerHostCommand(program: Command, contextFor: ContextFor): void {
  program
    .command('host')
    .description("run teammates for a team's lead on this machine (until Ctrl+C): the lead places them with --host")
    .requiredOption('--trust <token>', 'the token `teams hosts key` prints on the lead\'s machine')
    .option('--name <host>', "this host's name in the team (default: the machine's name)")
    .option('--workdir <dir>', 'where its teammates work (default: the current directory)')
    .action(async (options: { trust: string; name?: string; workdir?: string }, command: Command) => {
      const context = contextFor(command);
      const name = options.name ?? defaultHostName();
      const problem = agentNameProblem(name);
      if (problem) throw new UsageError(`--name: ${problem}`);
      let trust;
      try {
        trust = parseTrustToken(options.trust);
      } catch (error) {
        throw new UsageError(`--trust: ${errorMessage(error)}`);
      }
      const say = (line: string) => process.stderr.write(`teams host: ${line}\n`);
      // This machine's own model: its own key, or an offline server of its own.
      const cwd = resolve(options.workdir ?? process.cwd());
      refuseWorkdirInStateRoot(cwd, context.paths);
      const settings = resolveModelSettings({}, process.env);
      const model = await openModel(settings);
      const runner = new HostRunner({
        store: context.store,
        paths: context.paths,
        name,
        trust,
        key: hostKey(context.paths, name),
        cwd,
        // Its teammates open the same store, told by environment (a Redis URL may hold a password).
        env: { ...childModelEnv(settings, model.offlineURL), [STORE_ENV]: context.storeDescriptor },
        graceMs: 5_000,
        say,
      });
      const stopped = new Promise<void>((done) => {
        const stop = () => void runner.stop().finally(done);
        process.once('SIGINT', stop);
        process.once('SIGTERM', stop);
      });
      try {
        await runner.start(async () => {
          let told = false;
          while (!(await context.store.roster.load())) {
            if (!told) say(`waiting for team '${context.paths.team}' to exist`);
            told = true;
            await delay(500);
          }
        });
        await stopped;
        say('stopped: its teammates ended, the host deregistered');
      } finally {
        await runner.stop();
        await model.close();
      }
    });
}
