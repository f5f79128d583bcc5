import { mkdirSync, readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { errorMessage, isMissing, writeFileAtomic } from '../../lib/index.js';
import { AgentName } from '../../protocol/index.js';
import { HostBeat, HostRecord, type HostStore } from '../hosts.js';
import { FileChannel } from './channel-file.js';
import type { FileLocation } from './layout.js';
import { fileLayout } from './layout.js';
import { namesIn } from './names-in.js';

/**
 * The host section as files under hosts/: <name>.json the last beat (replaced whole at each
 * beat), <name>.orders and <name>.reports the channels. The store's clock is this machine's:
 * every process of a file store shares it.
 */
export class FileHosts implements HostStore {
  private readonly dir: string;
  readonly orders: FileChannel;
  readonly reports: FileChannel;

  constructor(location: FileLocation) {
    this.dir = fileLayout(location.root).hosts;
    this.orders = new FileChannel(this.dir, 'orders');
    this.reports = new FileChannel(this.dir, 'reports');
  }

  async beat(record: HostRecord): Promise<string> {
    const parsed = HostRecord.parse(record);
    const stamp = new Date().toISOString();
    mkdirSync(this.dir, { recursive: true });
    writeFileAtomic(join(this.dir, `${parsed.name}.json`), `${JSON.stringify({ ...parsed, last_beat: stamp })}\n`);
    return stamp;
  }

  async list(): Promise<{ hosts: HostBeat[]; now: string; problems: { ref: string; reason: string }[] }> {
    const hosts: HostBeat[] = [];
    const problems: { ref: string; reason: string }[] = [];
    for (const entry of namesIn(this.dir).filter((n) => n.endsWith('.json') && !n.startsWith('.')).sort()) {
      const ref = join(this.dir, entry);
      try {
        const host = HostBeat.parse(JSON.parse(readFileSync(ref, 'utf8')));
        if (`${host.name}.json` !== entry) throw new Error(`it names another host (${host.name})`);
        hosts.push(host);
      } catch (error) {
        // Gone between the listing and the read: a host that deregistered just now.
        if (!isMissing(error)) problems.push({ ref, reason: errorMessage(error) });
      }
    }
    return { hosts, now: new Date().toISOString(), problems };
  }

  async remove(name: string): Promise<void> {
    rmSync(join(this.dir, `${AgentName.parse(name)}.json`), { force: true });
  }
}
