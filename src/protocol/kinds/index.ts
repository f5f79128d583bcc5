import { broadcast, message } from './chat.js';
import { codeReviewRequest, codeReviewResponse } from './code-review.js';
import { finishRequest, finishResponse } from './finish.js';
import { hookFeedback } from './hook-feedback.js';
import { idleNotification } from './idle-notification.js';
import { interrupt } from './interrupt.js';
import { modeSet } from './mode-set.js';
import { permissionRequest, permissionResponse } from './permission.js';
import { planRequest, planResponse } from './plan.js';
import { rulesSet } from './rules-set.js';
import { shutdownRequest, shutdownResponse } from './shutdown.js';
import type { EnvelopeHead, KindSpec, RequestRole } from './spec.js';
import { taskAssignment } from './task-assignment.js';
import { taskNotification } from './task-notification.js';
import { userMessage } from './user-message.js';

/**
 * Every protocol kind, filed under its type. A kind is its own file in this folder and one
 * line here; everything else (the envelope schema, the send rules, signatures, notices,
 * expiry, the lines humans read, the lead's routing) is derived from what it declares.
 */
const SPECS = {
  message,
  broadcast,
  shutdown_request: shutdownRequest,
  shutdown_response: shutdownResponse,
  finish_request: finishRequest,
  finish_response: finishResponse,
  plan_approval_request: planRequest,
  plan_approval_response: planResponse,
  permission_request: permissionRequest,
  permission_response: permissionResponse,
  task_assignment: taskAssignment,
  idle_notification: idleNotification,
  task_notification: taskNotification,
  code_review_request: codeReviewRequest,
  code_review_response: codeReviewResponse,
  mode_set: modeSet,
  rules_set: rulesSet,
  user_message: userMessage,
  interrupt,
  hook_feedback: hookFeedback,
};

export type Kind = keyof typeof SPECS;

/** Complete, and each kind filed under its own type: a missing field or a mix-up does not compile. */
export const KIND_SPECS = SPECS satisfies { [K in Kind]: KindSpec<EnvelopeHead & { type: K }> };

/** A kind's spec where the kind is only known at run time (a message's `type`). */
export function specOf(type: Kind): KindSpec {
  const spec: KindSpec | undefined = KIND_SPECS[type];
  if (!spec) throw new Error(`unknown message type '${String(type)}'`);
  return spec;
}

/** The request side of a request kind ('plan', 'review'), by the name the tracker knows it by. */
export function requestRole(kind: string): RequestRole<EnvelopeHead> {
  for (const spec of Object.values(KIND_SPECS) as KindSpec[]) {
    if (spec.role.class === 'request' && spec.role.kind === kind) return spec.role;
  }
  throw new Error(`unknown request kind '${kind}'`);
}

/**
 * Whether a message sets its addressee to work, as its kind declares it: an interrupt or new
 * rules do not (an idle teammate ignores an interrupt, and its model never hears of rules), so
 * they bring no idle notification either. The lead and the teammate read this one rule.
 */
export function startsTurn(message: { type: Kind }): boolean {
  return specOf(message.type).startsTurn !== false;
}
