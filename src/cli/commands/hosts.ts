import type { Command } from 'commander';
import { inertJson, inertLine } from '../../lib/index.js';
import { hostPins, teamAnchor, trustToken } from '../../host/index.js';
import { LEAD } from '../../protocol/index.js';
import type { ContextFor } from '../context.js';
import { UsageError } from '../errors.js';

/** A host quiet for longer than this is stale: the lead takes its teammates for crashed. */
const STALE_MS = 3_000;

/** `teams hosts`: the team's hosts; `teams hosts key`: the token a host is given; `teams hosts forget`: unpin one. */
export function registerHostsCommands(program: Command, contextFor: ContextFor): void {
  const hosts = program
    .command('hosts')
    .description("the team's hosts (machines running teammates: `teams host`), with their last beat")
    .option('--json', 'one JSON object')
    .action(async (options: { json?: boolean }, command: Command) => {
      const context = contextFor(command);
      const team = await context.requireTeam();
      const { hosts: listed, now, problems } = await context.store.hosts.list();
      const rows = listed
        .filter((h) => h.name !== LEAD)
        .map((h) => {
          const age = Date.parse(now) - Date.parse(h.last_beat);
          const teammates = team.members.filter((m) => 'host' in m && m.host === h.name).map((m) => m.name);
          return { name: h.name, machine: h.machine ?? null, last_beat: h.last_beat, age_ms: age, alive: age <= STALE_MS, teammates };
        });
      if (options.json) {
        process.stdout.write(`${inertJson({ team: team.name, now, hosts: rows, problems })}\n`);
        return;
      }
      if (rows.length === 0) process.stdout.write('no hosts have registered (start one with `teams host --trust <token>`; `teams hosts key` prints the token)\n');
      for (const row of rows) {
        const state = row.alive ? 'alive' : 'stale';
        const on = row.teammates.length === 0 ? 'no teammates' : row.teammates.join(', ');
        process.stdout.write(`${inertLine(row.name.padEnd(20))} ${state.padEnd(6)} beat ${(row.age_ms / 1000).toFixed(1)} s ago  ${inertLine(on)}${row.machine ? `  (${inertLine(row.machine)})` : ''}\n`);
      }
      for (const problem of problems) process.stderr.write(`unreadable host record ${inertLine(problem.ref)}: ${inertLine(problem.reason)}\n`);
    });
  hosts
    .command('key')
    .description('print the token a host needs (`teams host --trust <token>`): keep it secret, it enrols hosts')
    .action((_options: unknown, command: Command) => {
      const context = contextFor(command);
      process.stdout.write(`${trustToken(teamAnchor(context.paths))}\n`);
    });
  hosts
    .command('forget')
    .argument('<host>', 'the host whose pinned key to forget')
    .description("forget a host's pinned key (a rebuilt machine): its next registration is pinned afresh")
    .action((name: string, _options: unknown, command: Command) => {
      const context = contextFor(command);
      if (!hostPins(context.paths).forget(name)) throw new UsageError(`no key is pinned for host '${inertLine(name)}'`);
      process.stdout.write(`forgot host ${name}'s key\n`);
    });
}
