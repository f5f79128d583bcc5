import { inertLine } from '../lib/index.js';
import type { RequestRecord } from '../protocol/index.js';

/**
 * A permission request's tool call as the approval queue's row shows it: `bash <command>` and
 * its reason, each on one inert line (the text comes from an agent). The row cuts each in the
 * middle to fit (ApprovalQueue.tsx), so the command's end and the reason stay in view.
 */
export function callRow(tool: NonNullable<RequestRecord['tool']>): { what: string; reason: string } {
  return { what: `${flat(tool.name)} ${flat(callTarget(tool.input))}`, reason: flat(tool.reason) };
}

/** The command for bash, the path for a file tool, else the input as JSON. */
function callTarget(input: Record<string, unknown>): string {
  if (typeof input.command === 'string') return input.command;
  if (typeof input.path === 'string') return input.path;
  return JSON.stringify(input);
}

function flat(text: string): string {
  return inertLine(text.replace(/\s+/g, ' ').trim());
}
