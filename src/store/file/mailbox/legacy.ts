import { existsSync, readdirSync, rmdirSync, unlinkSync } from 'node:fs';
import { sep } from 'node:path';
import type { Envelope } from '../../../protocol/index.js';
import { errnoCode, isMissing } from '../../../lib/index.js';
import { failpoint } from '../../failpoint.js';
import { listNew, readEntry } from './entries.js';
import { BATCH_BYTES, BATCH_ENTRIES, type Intake } from './intake.js';
import type { MailboxLayout } from './layout.js';
import { RecentIds } from './recent-ids.js';
import { moveAside } from './set-aside.js';

function removeQuietly(path: string): void {
  try {
    unlinkSync(path);
  } catch (error) {
    if (!isMissing(error)) throw error;
  }
}

/** Remove a directory if it is empty; one that is not (or is gone) is left as it is. */
function removeIfEmpty(dir: string): void {
  try {
    rmdirSync(dir);
  } catch (error) {
    const code = errnoCode(error);
    if (code !== 'ENOENT' && code !== 'ENOTEMPTY' && code !== 'EEXIST') throw error;
  }
}

/**
 * What an older version left in a mailbox: its Maildir, a file per message renamed from tmp/
 * into new/. The consumer takes new/ before the logs (it is older mail), file by file in send
 * order, with the same guarantees as before (journaled, then removed, then handed over), sets
 * aside whatever is left in tmp/ (a sender died between writing and renaming: never
 * delivered), and removes both directories once they are empty. Nothing writes there any more.
 */
export class LegacyMaildir {
  /** Entries that could not be set aside: reported once, then skipped until the consumer restarts. */
  private readonly stuck: RecentIds;
  /** Both directories are gone: nothing writes there any more, so they are not looked for again. */
  private gone = false;

  constructor(
    private readonly layout: MailboxLayout,
    private readonly intake: Intake,
    capacity: number,
  ) {
    this.stuck = new RecentIds(capacity);
  }

  drain(stopping: () => boolean): void {
    const { legacyNew, legacyTmp } = this.layout;
    if (this.gone) return;
    if (!existsSync(legacyNew) && !existsSync(legacyTmp)) {
      this.gone = true;
      return;
    }
    const names = listNew(legacyNew);
    for (let next = 0; next < names.length && !stopping(); ) next = this.consumeBatch(names, next);
    for (const name of existsSync(legacyTmp) ? readdirSync(legacyTmp).sort() : []) {
      this.setAside(legacyTmp, name, 'a temporary an older version left in tmp/: its sender died before renaming it into new/, so it was never delivered');
    }
    removeIfEmpty(legacyTmp);
    removeIfEmpty(legacyNew);
  }

  private setAside(dir: string, name: string, reason: string): void {
    const from = `${dir}${sep}${name}`;
    if (this.stuck.has(from)) return;
    const moved = moveAside(from, this.layout.bad, name);
    if (moved.kind === 'moved') this.intake.emit({ type: 'set_aside', problem: { ref: moved.to, reason } });
    else if (moved.kind === 'stuck') {
      this.stuck.add(from);
      const why = `${reason}; could not be moved to bad/ (${moved.error}): left where it is and skipped until the consumer restarts`;
      this.intake.emit({ type: 'set_aside', problem: { ref: from, reason: why } });
    }
  }

  /** Consume names[from…] up to one batch; returns where the next batch starts. */
  private consumeBatch(names: readonly string[], from: number): number {
    const dir = this.layout.legacyNew;
    const batch: { name: string; envelope: Envelope }[] = [];
    let bytes = 0;
    let next = from;
    for (; next < names.length && batch.length < BATCH_ENTRIES && bytes < BATCH_BYTES; next++) {
      const name = names[next] as string;
      if (this.stuck.has(`${dir}${sep}${name}`)) continue;
      const entry = readEntry(dir, name);
      if (entry.kind === 'vanished') continue;
      if (entry.kind === 'problem') {
        this.setAside(dir, name, entry.reason);
        continue;
      }
      // Checked before the dedupe too: a refused copy of a handled id is kept as evidence.
      const refused = this.intake.refusal(entry.envelope);
      if (refused !== undefined) this.setAside(dir, name, `refused: ${refused}`);
      else if (this.intake.handled.has(entry.envelope.id)) removeQuietly(`${dir}${sep}${name}`);
      else {
        batch.push({ name, envelope: entry.envelope });
        bytes += entry.bytes;
      }
    }
    if (batch.length > 0) {
      const messages = batch.map((item) => item.envelope);
      this.intake.journal.append(messages.map((message) => Buffer.from(JSON.stringify(message))));
      // Journaled, still in new/: the restarted consumer drops these, their ids being in the journal's tail.
      failpoint('mailbox-after-journal');
      for (const item of batch) removeQuietly(`${dir}${sep}${item.name}`);
      for (const message of messages) this.intake.handled.add(message.id);
      this.intake.emit({ type: 'delivered', messages });
    }
    return next;
  }
}
