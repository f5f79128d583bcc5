// The protocol: envelopes and their kinds (one file each under kinds/), names, ids, signing, the
// send rules, and requests as records with their lifecycle and deadlines.
// Other folders import this folder only through this file (.dependency-cruiser.cjs).
export { atTeammate } from './at-teammate.js';
export { classify } from './classify.js';
export { Usage } from './fields.js';
export { MESSAGE_ID_PATTERN, SESSION_ID_PATTERN, newMessageId, newRequestId, newSessionId } from './ids.js';
export { codeReviewRequest } from './kinds/code-review.js';
export { finishRequest, finishRequestDraft } from './kinds/finish.js';
export { requestRole, specOf, startsTurn } from './kinds/index.js';
export { INTERRUPTED_NOTE } from './kinds/interrupt.js';
export { modeAfterPlan, planRequest, planRequestDraft, planSubmissionProblem } from './kinds/plan.js';
export type { Decision, LeadRoute, PlanReviewer, TeammateReaction, TeammateState } from './kinds/spec.js';
export { keyValues } from './kinds/text.js';
export { Envelope, KINDS, MAX_MESSAGE_BYTES, MessageId, PERMISSION_MODES, PermissionMode, RequestId, RequestKindSchema, draftFrom, summarize } from './messages.js';
export type { Draft, Kind, OutgoingDraft, RequestKind } from './messages.js';
export { AgentName, BROADCAST, LEAD, Recipient, agentNameProblem } from './names.js';
export { humanLine, shownSender, taskNotificationSummary } from './notices.js';
export type { TaskNotification } from './notices.js';
export { asOpened, describeRequestChange } from './request-describe.js';
export { deadlineAt, expiryOutcome, resolveDeadlines } from './request-expiry.js';
export { transition } from './request-lifecycle.js';
export type { TransitionResult } from './request-lifecycle.js';
export { REQUEST_STATES, RequestRecord, RequestState, isOwnRequest } from './request-records.js';
export { checkSend } from './rules.js';
export type { RuleName } from './rules.js';
export { semanticBoolean } from './semantic-boolean.js';
export { KeyRing, canonical, createSigner, importPublicKey, verifySender } from './signing.js';
export type { Signer } from './signing.js';
export { didYouMean, memberHint } from './suggest.js';
