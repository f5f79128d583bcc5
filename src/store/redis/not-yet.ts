import { Refused } from '../../lib/index.js';
import type { AgentLogs } from '../team-store.js';

// LEAD: remove this file when merging h/redis-journals, which puts these members on Redis.
// Until then the Redis store's agent logs refuse plainly.

const refuse = (what: string) => () => Promise.reject(new Refused(`the ${what} are not yet on Redis`));

export function agentLogsNotYet(): AgentLogs {
  const no = refuse('agent logs');
  return { append: no, read: no, follow: no };
}
