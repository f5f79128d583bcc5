import * as z from 'zod';
import type { ToolIO } from './io.js';
import { DEFAULT_TIMEOUT_MS, type ExecResult } from './shell.js';
import { defineTool, type ToolResult } from './tool.js';

const Input = z.strictObject({
  command: z.string().min(1, 'command is empty').describe('The shell command, run by /bin/sh -c in the working directory.'),
});

/** Output first, then what went wrong, so the model reads the result the way a person would. */
export function formatExec(result: ExecResult): ToolResult {
  const parts: string[] = [];
  if (result.stdout.trim() !== '') parts.push(result.stdout.trimEnd());
  if (result.stderr.trim() !== '') parts.push(`[stderr]\n${result.stderr.trimEnd()}`);
  if (result.timedOut) parts.push('[timed out: the command and everything it started were killed]');
  else if (result.aborted) parts.push('[interrupted: the command and everything it started were killed]');
  else if (result.exitCode === null) parts.push('[killed by a signal]');
  else if (result.exitCode !== 0) parts.push(`[exit code ${result.exitCode}]`);
  const failed = result.timedOut || result.aborted || result.exitCode !== 0;
  return { content: parts.length > 0 ? parts.join('\n') : '(no output)', ...(failed ? { isError: true } : {}) };
}

export const bashTool = defineTool({
  name: 'bash',
  description:
    'Run a shell command in the working directory and return its output. Each call is a fresh shell: ' +
    `\`cd\` and variables do not carry over. Commands time out after ${DEFAULT_TIMEOUT_MS / 60_000} minutes by default; long output keeps its ` +
    'start and end. Background processes are killed when the command finishes. Prefer read_file, ' +
    'write_file and edit_file for files.',
  input: Input,
  async run(input, io: Pick<ToolIO, 'shell' | 'cwd'>, signal) {
    return formatExec(await io.shell.exec(input.command, { cwd: io.cwd, signal }));
  },
});
