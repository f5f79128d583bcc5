import { join } from 'node:path';

/** Where a file store lives: the team's directory, and the team's name. */
export type FileLocation = { root: string; team: string };

/**
 * The files the file store keeps under the team's directory; mailboxes are the log
 * transport's, under mailboxes/. Nobody outside the file store opens these.
 */
export function fileLayout(root: string) {
  const config = join(root, 'config.json');
  return {
    config,
    configLock: `${config}.lock`,
    requests: join(root, 'requests.jsonl'),
    audit: join(root, 'audit.jsonl'),
    /** The task board's journal (task-journal.ts). */
    tasks: join(root, 'tasks.jsonl'),
    /** sessions/<id>/meta.json and sessions/<id>/<agent>.jsonl, one journal per agent. */
    sessions: join(root, 'sessions'),
    /** logs/<agent>.log: a teammate's stdout and stderr, where its harness writes its events (the supervisor opens it). */
    agentLogs: join(root, 'logs'),
    /** hosts/<name>.json (its last beat), <name>.orders and <name>.reports (hosts-file.ts). */
    hosts: join(root, 'hosts'),
  };
}
