import type { SandboxStatus } from '../sandbox/settings.js';
import type { Draft, Envelope } from '../protocol/messages.js';
import type { HumanDecision } from '../runtime/lead-decisions.js';
import type { LeadEvent } from '../runtime/lead-events.js';
import type { TeamPaths } from '../team/paths.js';
import type { RequestRecord } from '../tracker/records.js';

/**
 * What the REPL uses of the lead runtime. LeadRuntime satisfies it as is; tests and the
 * bench may pass a small stand-in with the same shape.
 */
export interface ReplRuntime {
  readonly events: { subscribe(listener: (event: LeadEvent) => void): () => void };
  readonly model: { readonly label: string };
  /** How agents' commands run: the header says so, loudly when approvals do not bind. */
  readonly sandbox: SandboxStatus;
  readonly options: { readonly paths: TeamPaths; readonly cwd: string; readonly settings: { readonly model: string; readonly offline: boolean } };
  readonly loop: { readonly busy: boolean; interrupt(): void };
  readonly decisions: {
    decide(requestId: string, decision: HumanDecision): Promise<RequestRecord>;
    pendingForHuman(): RequestRecord[];
  };
  readonly teammates: {
    spawn(spec: { name: string; role: string; prompt: string; planMode: boolean }): Promise<{ pid: number }>;
    requestShutdown(name: string, reason: string | undefined): Promise<{ requestId: string }>;
  };
  readonly bus: { send(draft: Draft): Promise<Envelope> };
  readonly tracker: { list(): RequestRecord[] };
  prompt(text: string): void;
  stop(reason?: string): Promise<void>;
  forceStop(): Promise<void>;
}
