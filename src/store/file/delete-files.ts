import { rmdirSync, rmSync } from 'node:fs';
import { basename, join } from 'node:path';
import { errnoCode, isMissing } from '../../lib/index.js';
import { AgentName } from '../../protocol/index.js';
import { fileLayout, type FileLocation } from './layout.js';
import { namesIn } from './names-in.js';
import { clearMailbox } from './mailbox/clear-mailbox.js';
import { mailboxDir, mailboxesOf, mailboxLayout } from './mailbox/layout.js';
import { sealLogsUnder } from './mailbox/log-writer.js';

/** An agent's own files: its mailbox directory and its log (logs/<agent>.log). */
export function deleteMemberFiles(location: FileLocation, agent: string): void {
  // Checked first: the name becomes paths, and nothing but an agent's own may be removed.
  const name = AgentName.parse(agent);
  clearMailbox(mailboxLayout(mailboxDir(location.root, name)));
  rmSync(join(fileLayout(location.root).agentLogs, `${name}.log`), { force: true });
}

/**
 * Every file the store keeps for the team (its processes have stopped: a log one of them
 * still held open would take what it sent next with it). The team's directory also holds what is this
 * machine's and not the store's (the lead's workspace, its control socket and token): those
 * are left, and the directory itself is removed only once nothing else is in it.
 */
export function deleteTeamFiles(location: FileLocation): void {
  const layout = fileLayout(location.root);
  sealLogsUnder(mailboxesOf(location.root));
  // The roster first: from then on the team does not exist, whatever is left to remove.
  rmSync(layout.config, { force: true });
  // Its lock, the lock's breaker, and temporaries of writes (config.json.lock.<pid>.<n>.tmp, .config.json.<pid>.<n>.tmp).
  const config = basename(layout.config);
  for (const name of namesIn(location.root)) {
    if (name.startsWith(config) || name.startsWith(`.${config}.`)) rmSync(join(location.root, name), { force: true });
  }
  for (const path of [layout.requests, layout.audit, layout.tasks, layout.sessions, layout.agentLogs, mailboxesOf(location.root)]) {
    rmSync(path, { recursive: true, force: true });
  }
  // The .gitignore the roster made keeps what is left out of version control: it goes last, with the directory.
  const left = namesIn(location.root);
  if (left.length === 1 && left[0] === '.gitignore') rmSync(join(location.root, '.gitignore'), { force: true });
  try {
    rmdirSync(location.root);
  } catch (error) {
    if (!isMissing(error) && errnoCode(error) !== 'ENOTEMPTY') throw error;
  }
}
