import { Refused } from '../../lib/index.js';
import type { AgentLogs, AuditLog, RequestStore, SessionStore, TaskStore } from '../team-store.js';

// LEAD: remove this file when merging h/redis-journals, which puts these members on Redis.
// Until then the Redis store's requests, tasks, audit, sessions and agent logs refuse plainly.

const refuse = (what: string) => () => Promise.reject(new Refused(`the ${what} are not yet on Redis`));

export function requestsNotYet(): RequestStore {
  const no = refuse('requests');
  return { open: no, transition: no, get: no, list: no, watch: no };
}

export function tasksNotYet(): TaskStore {
  const no = refuse('tasks');
  return { create: no, claim: no, update: no, get: no, list: no, releaseAllOf: no, problems: no, watch: no };
}

export function auditNotYet(): AuditLog {
  const no = refuse('audit entries');
  return { append: no, read: no, follow: no };
}

export function sessionsNotYet(): SessionStore {
  const no = refuse('sessions');
  return { create: no, get: no, list: no, append: no, read: no };
}

export function agentLogsNotYet(): AgentLogs {
  const no = refuse('agent logs');
  return { read: no, follow: no };
}
