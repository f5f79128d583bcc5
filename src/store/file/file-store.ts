import { LogTransport } from './mailbox/log-transport.js';
import type { TeamStore } from '../team-store.js';
import { FileAgentLogs } from './agent-logs-file.js';
import { FileAudit } from './audit-file.js';
import { deleteMemberFiles, deleteTeamFiles } from './delete-files.js';
import type { FileLocation } from './layout.js';
import { FileRequests } from './requests-file.js';
import { FileRoster } from './roster-file.js';
import { FileSessions } from './sessions-file.js';
import { FileTasks } from './tasks-file.js';
import { FileHosts } from './hosts-file.js';

/**
 * The team store as files under the team's directory, shared by every process on this
 * machine (see README, "State on disk"). It holds nothing open between calls: each watch has
 * its own watcher, which its subscription closes.
 */
export function openFileStore(location: FileLocation): TeamStore {
  return {
    team: location.team,
    roster: new FileRoster(location),
    requests: new FileRequests(location),
    audit: new FileAudit(location),
    mailboxes: new LogTransport(location.root),
    sessions: new FileSessions(location),
    agentLogs: new FileAgentLogs(location),
    tasks: new FileTasks(location),
    hosts: new FileHosts(location),
    deleteMember: async (agent) => deleteMemberFiles(location, agent),
    deleteTeam: async () => deleteTeamFiles(location),
    // One machine: its clock is every process's.
    now: async () => new Date(),
    close: async () => undefined,
  };
}
