/** A permission decision as the waiting tool call receives it. */
export type PermissionAnswer = { approve: boolean; feedback?: string; always?: boolean };

/**
 * Tool calls blocked on a permission request, by request id. A teammate's answer comes from
 * the lead's response or its deadline (both arrive as permission_response messages); the
 * lead's own from the human's decision or the tracker. An interrupted call is denied at once
 * so the loop can stop.
 */
export class PermissionWaiters {
  private readonly waiting = new Map<string, (answer: PermissionAnswer) => void>();

  wait(requestId: string, signal: AbortSignal): Promise<PermissionAnswer> {
    return new Promise((resolve) => {
      const onAbort = () => this.settle({ requestId, approve: false, feedback: 'interrupted before a decision came' });
      signal.addEventListener('abort', onAbort, { once: true });
      this.waiting.set(requestId, (answer) => {
        signal.removeEventListener('abort', onAbort);
        resolve(answer);
      });
    });
  }

  waitingIds(): string[] {
    return [...this.waiting.keys()];
  }

  /** Hand a decision to the call waiting for it; a decision nobody waits for is ignored. */
  settle(decision: { requestId: string } & PermissionAnswer): boolean {
    const resolve = this.waiting.get(decision.requestId);
    if (!resolve) return false;
    this.waiting.delete(decision.requestId);
    resolve({ approve: decision.approve, feedback: decision.feedback, always: decision.always });
    return true;
  }
}
