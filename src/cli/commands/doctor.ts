import type { Command } from 'commander';
import { probeSandbox, describeSeccomp, bwrapProgram, INSTALL_HINT, describeBounds } from '../../sandbox/index.js';
import { readControlToken, loadProjectHooks, loadProjectSandbox } from '../../lead/index.js';
import { describeHookPowers } from '../../hooks/index.js';
import type { ContextFor } from '../context.js';
import { describeStateRoots } from './doctor-state-roots.js';

/**
 * What this machine gives the team: whether agents' commands can be sandboxed (so approvals
 * bind), with and without network, and whether a lead is running. Exits 1 when they cannot.
 */
export function registerDoctorCommand(program: Command, contextFor: ContextFor): void {
  program
    .command('doctor')
    .description('check that agents\' commands can be sandboxed here (bubblewrap), and what the team is doing')
    .action(async (_options: unknown, command: Command) => {
      const context = contextFor(command);
      const bwrap = bwrapProgram();
      const withNetwork = probeSandbox(bwrap, 'on');
      const withoutNetwork = probeSandbox(bwrap, 'none');
      const line = (label: string, text: string) => process.stdout.write(`${label.padEnd(24)}${text}\n`);
      line('node', process.version);
      line('sandbox', withNetwork.ok ? `active: ${withNetwork.version} (${bwrap})` : `UNAVAILABLE: ${withNetwork.reason}`);
      // The probe loads the filter where there is one: a sandbox that came up has it.
      line('seccomp', withNetwork.ok ? describeSeccomp() : `not loaded: ${withNetwork.reason}`);
      line('sandbox, no network', withoutNetwork.ok ? 'available (--sandbox-network none)' : `unavailable: ${withoutNetwork.reason}`);
      for (const [label, text] of describeBounds(loadProjectSandbox(context.paths.home))) line(label, text);
      const team = await context.store.roster.load();
      line('team', team ? `${team.name} (${context.paths.root})` : `none yet in ${context.paths.home}`);
      if (team?.sandbox) line('last lead started with', team.sandbox);
      line('lead', readControlToken(context.paths.controlToken) ? 'running (control socket ready)' : 'not running');
      // Hooks run sandboxed, read-only and offline; the ones granted more are the human's to review.
      for (const powered of describeHookPowers(loadProjectHooks(context.paths.home))) line('hook with more power', powered);
      for (const [label, text] of describeStateRoots(process.cwd(), context.paths)) line(label, text);
      if (!withNetwork.ok) throw new Error(`teammates cannot start here except in bypass mode: ${INSTALL_HINT}`);
    });
}
