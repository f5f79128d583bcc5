import type { Command } from 'commander';
import { inertJson, inertLine } from '../../lib/index.js';
import { hostPins, judgeHosts, teamAnchor, trustToken } from '../../host/index.js';
import type { ContextFor } from '../context.js';
import { UsageError } from '../errors.js';

/** `teams hosts`: the team's hosts; `teams hosts key`: the token a host is given; `teams hosts forget`: unpin one. */
export function registerHostsCommands(program: Command, contextFor: ContextFor): void {
  const hosts = program
    .command('hosts')
    .description("the team's hosts (machines running teammates: `teams host`), with their last beat")
    .option('--json', 'one JSON object')
    .action(async (options: { json?: boolean }, command: Command) => {
      const context = contextFor(command);
      const team = await context.requireTeam();
      // Judged by the beats each host signed with its pinned key: the store's own stamps are anyone's to write.
      const { hosts: judged, now, problems } = await judgeHosts(context.store, context.paths);
      const rows = judged.map(({ beat, state, ageMs, provenAt, why }) => {
        const teammates = team.members.filter((m) => m.host === beat.name).map((m) => m.name);
        return { name: beat.name, machine: beat.machine ?? null, state, last_beat: provenAt ?? null, age_ms: ageMs ?? null, ...(why === undefined ? {} : { why }), teammates };
      });
      if (options.json) {
        process.stdout.write(`${inertJson({ team: team.name, now, hosts: rows, problems })}\n`);
        return;
      }
      if (rows.length === 0) process.stdout.write('no hosts have registered (start one with `teams host --trust <token>`; `teams hosts key` prints the token)\n');
      for (const row of rows) {
        const on = row.teammates.length === 0 ? 'no teammates' : row.teammates.join(', ');
        const beat = row.age_ms === null ? `unproven: ${row.why ?? ''}` : `beat ${(row.age_ms / 1000).toFixed(1)} s ago`;
        process.stdout.write(`${inertLine(row.name.padEnd(20))} ${row.state.padEnd(8)} ${inertLine(beat)}  ${inertLine(on)}${row.machine ? `  (${inertLine(row.machine)})` : ''}\n`);
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
