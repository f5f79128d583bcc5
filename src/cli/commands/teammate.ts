import type { Command } from 'commander';
import { resolveModelSettings } from '../../model/settings.js';
import { PermissionMode } from '../../protocol/messages.js';
import { UsageError } from '../errors.js';
import type { ContextFor } from '../program.js';

/** The teammate process's entry: started by the lead's supervisor, never by hand. */
export function registerTeammateCommand(program: Command, contextFor: ContextFor): void {
  program
    .command('teammate <name>', { hidden: true })
    .option('--permission-mode <mode>', 'inherited from the lead', 'default')
    .option('--plan-mode', 'read-only until a plan is approved')
    .action(async (name: string, options: { permissionMode: string; planMode?: boolean }, command: Command) => {
      const mode = PermissionMode.safeParse(options.permissionMode);
      if (!mode.success) throw new UsageError(`--permission-mode: '${options.permissionMode}' is not a permission mode`);
      if (!process.send) throw new UsageError('teammates are started by the lead (teams spawn), not by hand');
      const context = contextFor(command);
      const { runTeammate } = await import('../../runtime/teammate.js');
      const code = await runTeammate({
        paths: context.paths,
        name,
        settings: resolveModelSettings({}, process.env),
        cwd: process.cwd(),
        permissionMode: mode.data,
        planMode: options.planMode ?? false,
        onReady: () => process.send?.({ type: 'ready' }),
      });
      // The IPC channel would keep the process alive; everything else is closed by now.
      process.exit(code);
    });
}
