import * as z from 'zod';
import { semanticBoolean } from '../protocol/index.js';
import type { ToolIO } from './io.js';
import { sandboxHint } from './sandbox-hint.js';
import { DEFAULT_TIMEOUT_MS, type ExecResult } from './shell.js';
import { defineTool, type ToolResult } from './tool.js';

export const BashInput = z.strictObject({
  command: z.string().min(1, 'command is empty').describe('The shell command, run by /bin/sh -c in the working directory.'),
  write: semanticBoolean
    .optional()
    .describe('true if the command must change files in the working directory. Without it the command runs with the working directory read-only. Asking for it asks the human unless a rule allows the command.'),
  network: semanticBoolean
    .optional()
    .describe('true if the command must reach the network (install packages, fetch). Without it the command has no network. Asking for it asks the human unless a network rule allows the command.'),
});
export type BashInput = z.infer<typeof BashInput>;

/** Output first, then what went wrong, so the model reads the result the way a person would. */
export function formatExec(result: ExecResult, hint?: string): ToolResult {
  const parts: string[] = [];
  if (result.stdout.trim() !== '') parts.push(result.stdout.trimEnd());
  if (result.stderr.trim() !== '') parts.push(`[stderr]\n${result.stderr.trimEnd()}`);
  if (result.timedOut) parts.push('[timed out: the command and everything it started were killed]');
  else if (result.aborted) parts.push('[interrupted: the command and everything it started were killed]');
  else if (result.exitCode === null) parts.push('[killed by a signal]');
  else if (result.exitCode !== 0) parts.push(`[exit code ${result.exitCode}]`);
  const failed = result.timedOut || result.aborted || result.exitCode !== 0;
  if (failed && hint !== undefined) parts.push(hint);
  return { content: parts.length > 0 ? parts.join('\n') : '(no output)', ...(failed ? { isError: true } : {}) };
}

export const bashTool = defineTool({
  name: 'bash',
  description:
    'Run a shell command in the working directory and return its output. Each call is a fresh shell: ' +
    `\`cd\` and variables do not carry over. Commands time out after ${DEFAULT_TIMEOUT_MS / 60_000} minutes by default; long output keeps its ` +
    'start and end. Background processes are killed when the command finishes. Commands run in a sandbox, ' +
    'with the working directory read-only and no network unless you set write or network (which asks the human). ' +
    'Prefer read_file, write_file and edit_file for files.',
  input: BashInput,
  async run(input, io: Pick<ToolIO, 'shell' | 'cwd' | 'grant'>, signal) {
    const result = await io.shell.exec(input.command, { cwd: io.cwd, signal, grant: io.grant });
    return formatExec(result, sandboxHint(result, io.grant));
  },
});
