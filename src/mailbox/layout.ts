import { closeSync, fsyncSync, mkdirSync, openSync } from 'node:fs';
import { join } from 'node:path';
import { agentNameProblem } from '../protocol/names.js';

/**
 * One agent's mailbox on disk (Maildir, no locks):
 * - tmp/       senders write a message here first, whole, under its final name;
 * - new/       then rename it in: whatever a reader sees in new/ is complete;
 * - bad/       entries the consumer could not read, set aside and kept as evidence under
 *              their own name, or <name>.1, .2, … if it is taken (never pruned or replaced:
 *              a person looks at them, then deletes them);
 * - delivered.jsonl (+ delivered.<ms>.jsonl archives) the consumer's journal of handled messages.
 */
export type MailboxLayout = {
  dir: string;
  tmp: string;
  new: string;
  bad: string;
  journal: string;
};

/** <team root>/mailboxes/<agent>: the name is checked, since it becomes a directory name. */
export function mailboxDir(teamRoot: string, agent: string): string {
  const problem = agentNameProblem(agent);
  if (problem) throw new Error(problem);
  return join(teamRoot, 'mailboxes', agent);
}

export function mailboxLayout(dir: string): MailboxLayout {
  return {
    dir,
    tmp: join(dir, 'tmp'),
    new: join(dir, 'new'),
    bad: join(dir, 'bad'),
    journal: join(dir, 'delivered.jsonl'),
  };
}

export function ensureMailboxDirs(layout: MailboxLayout): void {
  for (const dir of [layout.tmp, layout.new, layout.bad]) mkdirSync(dir, { recursive: true });
}

/** Flush a file's data, or a directory's entries, to the disk (for a machine crash, not a process kill). */
export function fsyncPath(path: string): void {
  const fd = openSync(path, 'r');
  try {
    fsyncSync(fd);
  } finally {
    closeSync(fd);
  }
}
