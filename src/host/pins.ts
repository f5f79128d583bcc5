import { mkdirSync, readFileSync } from 'node:fs';
import { dirname } from 'node:path';
import * as z from 'zod';
import { errorMessage, isMissing, writeFileAtomic } from '../lib/index.js';
import { AgentName } from '../protocol/index.js';

/**
 * The hosts' keys as the lead first saw them, in the lead machine's state root (never the
 * store): a registration under a known name with another key is someone else, refused.
 */
const Pinned = z.record(AgentName, z.string().min(1));

export type PinResult = { ok: true; first: boolean } | { ok: false; reason: string };

export class HostPins {
  constructor(private readonly path: string) {}

  private load(): Record<string, string> {
    let text: string;
    try {
      text = readFileSync(this.path, 'utf8');
    } catch (error) {
      if (isMissing(error)) return {};
      throw error;
    }
    try {
      return Pinned.parse(JSON.parse(text));
    } catch (error) {
      throw new Error(`cannot read the pinned host keys ${this.path}: ${errorMessage(error)}`);
    }
  }

  /** The key pinned for `host`, if any. */
  keyOf(host: string): string | undefined {
    return this.load()[host];
  }

  /** Pin `key` for `host` on first sight; the same key again is fine; another is refused. */
  pin(host: string, key: string): PinResult {
    const pinned = this.load();
    const known = pinned[host];
    if (known === key) return { ok: true, first: false };
    if (known !== undefined) return { ok: false, reason: `host ${host} registered with a key other than the one pinned for it: refused (if the machine was rebuilt, forget it with \`teams hosts forget ${host}\`)` };
    mkdirSync(dirname(this.path), { recursive: true, mode: 0o700 });
    writeFileAtomic(this.path, `${JSON.stringify({ ...pinned, [host]: key }, null, 2)}\n`, { mode: 0o600 });
    return { ok: true, first: true };
  }

  /** Whether a key was pinned for `host` (and is now forgotten). */
  forget(host: string): boolean {
    const pinned = this.load();
    if (pinned[host] === undefined) return false;
    const { [host]: _forgotten, ...kept } = pinned;
    writeFileAtomic(this.path, `${JSON.stringify(kept, null, 2)}\n`, { mode: 0o600 });
    return true;
  }
}
