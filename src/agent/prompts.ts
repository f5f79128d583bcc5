import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { PACKAGE_ROOT } from '../lib/index.js';

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
