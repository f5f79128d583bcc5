import type { Draft, PermissionMode } from '../protocol/messages.js';
import { LEAD } from '../protocol/names.js';
import { isOwnRequest, type RequestRecord } from '../tracker/records.js';

export type Decision = { approve: boolean; note?: string; permissionMode?: PermissionMode };

/**
 * The lead's response to a request it was asked to decide (by the human or the lead's
 * model), or why there is none: shutdown requests are answered by the teammate.
 */
export function decisionDraft(record: RequestRecord, decision: Decision): { ok: true; draft: Draft } | { ok: false; error: string } {
  if (isOwnRequest(record)) {
    return { ok: false, error: `request '${record.request_id}' is the lead's own; only the lead process that asked takes its decision (teams approve reaches it while it runs)` };
  }
  if (record.to !== LEAD) {
    return { ok: false, error: `request '${record.request_id}' is a ${record.kind} request addressed to ${record.to}; only ${record.to} answers it` };
  }
  const base = { from: LEAD, to: record.from, request_id: record.request_id, approve: decision.approve };
  switch (record.kind) {
    case 'plan':
      return {
        ok: true,
        draft: {
          ...base,
          type: 'plan_approval_response',
          feedback: decision.note,
          // An approved plan hands over the lead's mode; plan mode itself becomes default (seed 000).
          permission_mode: decision.approve && decision.permissionMode ? (decision.permissionMode === 'plan' ? 'default' : decision.permissionMode) : undefined,
        },
      };
    case 'permission':
      return { ok: true, draft: { ...base, type: 'permission_response', feedback: decision.note } };
    case 'finish':
      return { ok: true, draft: { ...base, type: 'finish_response', feedback: decision.note } };
    case 'shutdown':
      return { ok: false, error: `request '${record.request_id}' is a shutdown request; the teammate answers it` };
  }
}
