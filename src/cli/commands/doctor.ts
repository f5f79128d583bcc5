import type { Command } from 'commander';
import { doctorReport, doctorText } from '../../lead/index.js';
import type { ContextFor } from '../context.js';

/** `teams doctor` (doctor-report.ts); exits 1 when agents' commands cannot be sandboxed here. */
export function registerDoctorCommand(program: Command, contextFor: ContextFor): void {
  program
    .command('doctor')
    .description('check that agents\' commands can be sandboxed here (bubblewrap), and what the team is doing')
    .action(async (_options: unknown, command: Command) => {
      const context = contextFor(command);
      const report = doctorReport(context.paths, await context.store.roster.load(), process.cwd());
      process.stdout.write(`${doctorText(report)}\n`);
      if (report.blocker) throw new Error(report.blocker);
    });
}
