import { type Envelope, type PermissionMode, renderForModel, modeAfterPlan } from '../protocol/index.js';

/** A teammate's protocol state: what it may do, and what it is waiting for. */
export type TeammateState = {
  mode: PermissionMode;
  /** Plan mode holds until a plan is approved; the harness, not the prompt, enforces it. */
  planApproved: boolean;
  planRejections: number;
  /** Set once the teammate agreed to stop: it finishes the step under way, then exits. */
  stopping: false | 'shutdown' | 'finish';
};

export const MAX_PLAN_REJECTIONS = 3;

export function initialState(mode: PermissionMode, planMode: boolean): TeammateState {
  return { mode: planMode ? 'plan' : mode, planApproved: !planMode, planRejections: 0, stopping: false };
}

/** What an incoming message means for the teammate. */
export type Reaction = {
  state: TeammateState;
  /** Text for the model, if the model should hear of it. */
  notice?: string;
  /** A permission decision to hand to the tool call waiting for it. */
  permission?: { requestId: string; approve: boolean; feedback?: string; always?: boolean };
};

/**
 * Pure: the teammate's reaction to one verified message. Protocol messages become notices,
 * never raw JSON; plan and finish decisions change what the harness allows.
 */
export function react(state: TeammateState, envelope: Envelope): Reaction {
  // The default is meant: every other kind, present or future, only tells the model something,
  // in the words of its own kind file, so adding a kind must not mean editing this switch.
  // eslint-disable-next-line @typescript-eslint/switch-exhaustiveness-check -- see above
  switch (envelope.type) {
    case 'plan_approval_response': {
      if (envelope.approve) {
        // Already out of plan mode by the human's mode_set: the approval does not undo their choice.
        const inherited = state.planApproved && state.mode !== 'plan' ? state.mode : modeAfterPlan(envelope.permission_mode);
        return {
          state: { ...state, planApproved: true, mode: inherited },
          notice: `${renderForModel(envelope)} You may now carry out the plan (permission mode: ${inherited}).`,
        };
      }
      const rejections = state.planRejections + 1;
      const capped = rejections >= MAX_PLAN_REJECTIONS;
      return {
        state: { ...state, planRejections: rejections },
        notice: capped
          ? `${renderForModel(envelope)} Your plan has been rejected ${rejections} times; do not submit it again. Send the lead a message explaining what you need, then wait.`
          : renderForModel(envelope),
      };
    }
    case 'permission_response':
      return {
        state,
        permission: {
          requestId: envelope.request_id,
          approve: envelope.approve,
          feedback: envelope.feedback,
          // Kept only with an approval: a denial that says "always" grants nothing.
          ...(envelope.approve && envelope.always ? { always: true } : {}),
        },
      };
    case 'mode_set':
      // The lead's signed order (the human's /mode or `teams mode`). Plan mode holds again until
      // a plan is approved; any other mode ends plan mode, which only the human can order.
      return envelope.permission_mode === 'plan'
        ? { state: { ...state, mode: 'plan', planApproved: false, planRejections: 0 }, notice: renderForModel(envelope) }
        : { state: { ...state, mode: envelope.permission_mode, planApproved: true }, notice: renderForModel(envelope) };
    case 'finish_response':
      return envelope.approve
        ? { state: { ...state, stopping: 'finish' }, notice: renderForModel(envelope) }
        : { state, notice: renderForModel(envelope) };
    default:
      return { state, notice: renderForModel(envelope) };
  }
}

/** Whether another plan may be submitted. */
export function planSubmissionProblem(state: TeammateState): string | undefined {
  if (state.planApproved) return 'your plan is already approved; carry it out';
  if (state.planRejections >= MAX_PLAN_REJECTIONS) {
    return `your plan was rejected ${state.planRejections} times; stop resubmitting and ask the lead what it needs`;
  }
  return undefined;
}
