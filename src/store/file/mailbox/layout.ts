import { closeSync, fsyncSync, mkdirSync, openSync } from 'node:fs';
import { join } from 'node:path';
import { agentNameProblem } from '../../../protocol/index.js';

/**
 * One agent's mailbox on disk (no locks; one consumer, any number of writers):
 * - logs/      one append-only log per writing process, <writer>.<seq>.log (see log-names.ts):
 *              a message is one JSON line, appended by one write(2);
 * - checkpoint.jsonl  how far the consumer has read each log (see checkpoint.ts);
 * - bad/       what the consumer could not take as a message, set aside and kept as evidence:
 *              a log's line as <log>.<offset>, any other entry under its own name, or
 *              <name>.1, .2, … if that is taken (never pruned or replaced: a person looks at
 *              them, then deletes them);
 * - delivered.jsonl (+ delivered.<ms>.jsonl archives) the consumer's journal of handled messages;
 * - tmp/ new/  the Maildir an older version wrote a file per message into: whatever it left
 *              is taken first, and the directories are removed once empty (legacy.ts).
 */
export type MailboxLayout = {
  dir: string;
  logs: string;
  checkpoint: string;
  bad: string;
  journal: string;
  legacyTmp: string;
  legacyNew: string;
};

/** <team root>/mailboxes: every agent's mailbox. */
export function mailboxesOf(teamRoot: string): string {
  return join(teamRoot, 'mailboxes');
}

/** <team root>/mailboxes/<agent>: the name is checked, since it becomes a directory name. */
export function mailboxDir(teamRoot: string, agent: string): string {
  const problem = agentNameProblem(agent);
  if (problem) throw new Error(problem);
  return join(mailboxesOf(teamRoot), agent);
}

export function mailboxLayout(dir: string): MailboxLayout {
  return {
    dir,
    logs: join(dir, 'logs'),
    checkpoint: join(dir, 'checkpoint.jsonl'),
    bad: join(dir, 'bad'),
    journal: join(dir, 'delivered.jsonl'),
    legacyTmp: join(dir, 'tmp'),
    legacyNew: join(dir, 'new'),
  };
}

export function ensureMailboxDirs(layout: MailboxLayout): void {
  for (const dir of [layout.logs, layout.bad]) mkdirSync(dir, { recursive: true });
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
