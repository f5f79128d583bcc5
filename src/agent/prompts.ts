import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { PACKAGE_ROOT } from '../lib/index.js';
import type { PlanReviewer } from '../protocol/index.js';

/** prompts/ at the package root. */
export const PROMPTS_DIR = join(PACKAGE_ROOT, 'prompts');

/**
 * Fill `{{placeholder}}`s in a prompt file. A placeholder with no value is an error, not an
 * empty string: a prompt that silently lost its rules is worse than one that fails to load.
 */
export function renderPrompt(file: string, values: Record<string, string>): string {
  const template = readFileSync(join(PROMPTS_DIR, file), 'utf8');
  return template.replace(/\{\{(\w+)\}\}/g, (_match, key: string) => {
    const value = values[key];
    if (value === undefined) throw new Error(`prompt ${file} uses {{${key}}}, which has no value`);
    return value;
  });
}

export function protocolRules(): string {
  return readFileSync(join(PROMPTS_DIR, 'protocol-rules.md'), 'utf8').trim();
}

/**
 * The lead prompt's word on plans: which tool answers them, when the lead's model reviews
 * them (and only then has plan_approval_response), or that the human decides, not it.
 */
export function planReviewNote(reviewer: PlanReviewer): string {
  return reviewer === 'lead'
    ? "You review teammates' plans yourself with plan_approval_response."
    : "The human decides teammates' plans, permission requests and requests to finish, not you; you will hear the outcome.";
}

/** The teammate prompt's word on plan mode, only when it starts in it: plan_approval_request is offered only then. */
export function planModeNote(planMode: boolean): string {
  return planMode ? ' You start in plan mode: only read-only tools work until a plan you submit with plan_approval_request is approved.' : '';
}
