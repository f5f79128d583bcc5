import { readdirSync } from 'node:fs';
import { isMissing } from '../../lib/index.js';

/** The names in a directory, or none if it does not exist (yet, or any more). */
export function namesIn(dir: string): string[] {
  try {
    return readdirSync(dir);
  } catch (error) {
    if (isMissing(error)) return [];
    throw error;
  }
}
