import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

/** prompts/ at the package root (this file runs from dist/src/agent/). */
export const PROMPTS_DIR = fileURLToPath(new URL('../../../prompts/', import.meta.url));

/**
 * Fill `{{placeholder}}`s in a prompt file. A placeholder with no value is an error, not an
 * empty string: a prompt that silently lost its rules is worse than one that fails to load.
 */
export function renderPrompt(file: string, values: Record<string, string>): string {
  const template = readFileSync(`${PROMPTS_DIR}${file}`, 'utf8');
  return template.replace(/\{\{(\w+)\}\}/g, (_match, key: string) => {
    const value = values[key];
    if (value === undefined) throw new Error(`prompt ${file} uses {{${key}}}, which has no value`);
    return value;
  });
}

export function protocolRules(): string {
  return readFileSync(`${PROMPTS_DIR}protocol-rules.md`, 'utf8').trim();
}
