/**
 * Where a team's state lives in Redis. Every key of a team starts `teams:{<team>}:`: the braces
 * are a cluster hash tag, so all of a team's keys hash to one slot and one script may touch
 * several of them. Team and agent names follow the agent-name rule (letters, digits, `-`,
 * `_`), so no name can reach into another's keys.
 */
export type TeamKeys = ReturnType<typeof teamKeys>;

export function teamKeys(team: string) {
  const prefix = `teams:{${team}}:`;
  return {
    prefix,
    /** Every key of the team, for SCAN when the team is deleted. */
    pattern: `${prefix}*`,
    /** The roster: JSON and its version, changed only by compare-and-set. */
    roster: `${prefix}roster`,
    /** One entry per roster change: what watches block on. */
    rosterChanges: `${prefix}roster:changes`,
    /** An agent's mailbox: a stream read by one consumer group. */
    mailbox: (agent: string) => `${prefix}mailbox:${agent}`,
    /** Entries of `agent`'s mailbox that could not be read or were refused, with why. */
    setAside: (agent: string) => `${prefix}mailbox:${agent}:bad`,
    /** The ids of messages already delivered to `agent` (a sorted set, the newest kept): a second deliver of one is dropped. */
    delivered: (agent: string) => `${prefix}mailbox:${agent}:ids`,
    /** The messages `agent` has handled, in the order handled (a stream, the newest kept): its history. */
    handled: (agent: string) => `${prefix}mailbox:${agent}:handled`,
    /** The ids `agent` has handled (a sorted set, the newest kept): one read again is acked and skipped. */
    handledIds: (agent: string) => `${prefix}mailbox:${agent}:handled:ids`,
    /** The last batch `agent`'s consumer took and what became of each entry: a take retried after a lost reply is answered from it. */
    lastTake: (agent: string) => `${prefix}mailbox:${agent}:taken`,
    /** Which consumer may read `agent`'s mailbox now, and until when. */
    lease: (agent: string) => `${prefix}mailbox:${agent}:lease`,
    requests: `${prefix}requests`,
    tasks: `${prefix}tasks`,
    audit: `${prefix}audit`,
    /** Session metadata by id. */
    sessions: `${prefix}sessions`,
    /** `agent`'s journal of session `session`: a stream of records. */
    journal: (session: string, agent: string) => `${prefix}session:${session}:${agent}`,
    /** The agents with a journal in session `session` (a set): what listing a session reads, instead of a SCAN. */
    sessionAgents: (session: string) => `${prefix}session-agents:${session}`,
    agentLog: (agent: string) => `${prefix}log:${agent}`,
    /** The hosts' last beats: a hash of host name to its record as JSON (hosts.ts). */
    hosts: `${prefix}hosts`,
    /** A host's channel, `orders` (lead → host) or `reports` (host → lead): a stream of lines. */
    hostChannel: (host: string, channel: 'orders' | 'reports') => `${prefix}host:${host}:${channel}`,
  };
}

/**
 * What deleting a member removes: the keys its processes exchange through, named by it. What the
 * team keeps as history (session journals, requests, tasks, audit) stays until the team goes.
 */
export function memberKeys(keys: TeamKeys, agent: string): string[] {
  return [
    keys.mailbox(agent),
    keys.setAside(agent),
    keys.delivered(agent),
    keys.handled(agent),
    keys.handledIds(agent),
    keys.lastTake(agent),
    keys.lease(agent),
    keys.agentLog(agent),
  ];
}

