import type { OutgoingDraft } from '../protocol/messages.js';
import type { RequestRecord } from '../tracker/records.js';
import type { Member } from '../team/config.js';

/**
 * What the team tools need from the harness running them. The harness implements it over
 * the bus, the tracker and the supervisor; tests implement it in memory. Methods throw an
 * Error whose message is shown to the model when an action is refused.
 */
export interface TeamIO {
  /** The agent running the tools. */
  readonly self: string;
  sendMessage(to: string, content: string): Promise<{ id: string }>;
  /**
   * Send a protocol message as this agent: the tools of a kind (src/protocol/kinds/) send
   * through this, and the bus checks every rule the kind declares.
   */
  send(draft: OutgoingDraft): Promise<{ id: string }>;
  broadcast(content: string): Promise<{ id: string; recipients: string[] }>;
  /** Take the queued messages, rendered as notices; empty when there are none. */
  readInbox(): Promise<string[]>;
  listTeammates(): Promise<Member[]>;
  /** Lead only: start a teammate process. */
  spawnTeammate(spec: { name: string; role: string; prompt: string; planMode: boolean }): Promise<{ pid: number }>;
  /** Lead only: ask a teammate to shut down. */
  requestShutdown(teammate: string, reason: string | undefined): Promise<{ requestId: string }>;
  /** The state of a request, as the tracker knows it. */
  requestStatus(requestId: string): RequestRecord | undefined;
  /** Lead only, when the lead model reviews plans: decide a teammate's plan. */
  reviewPlan(requestId: string, approve: boolean, feedback: string | undefined): Promise<void>;
  /** Teammate only: answer the lead's shutdown request. Approving ends this process after the turn. */
  answerShutdown(requestId: string, approve: boolean, reason: string | undefined): Promise<void>;
  /** Teammate only: submit a plan for approval; the decision arrives later as a message. */
  submitPlan(plan: string): Promise<{ requestId: string }>;
  /** Teammate only: say the work is done and ask to be ended; the answer arrives as a message. */
  requestFinish(summary: string): Promise<{ requestId: string }>;
}
