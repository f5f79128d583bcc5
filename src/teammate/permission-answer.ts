/** A permission decision as the waiting tool call receives it. */
export type PermissionAnswer = { approve: boolean; feedback?: string; always?: boolean };

/** An interrupted call is denied at once, so the loop can stop without a decision. */
export const interrupted = (): PermissionAnswer => ({ approve: false, feedback: 'interrupted before a decision came' });
