/** How a wait for a reply ends when no reply comes. */
export type RequestOptions<T> = {
  /** Aborting stops the wait at once with `onAbort()`: an interrupted turn must not hang on it. */
  signal?: AbortSignal;
  onAbort: () => T;
  /** Epoch ms after which the wait ends with `onTimeout()`; without it, only a reply or the signal ends it. */
  deadlineAt?: number;
  onTimeout?: () => T;
};

type Waiter<T> = { resolve: (reply: T) => void; cleanup: () => void };

/**
 * Waits for replies correlated by id, the way gemini-cli's message bus `request()` does: the
 * waiter is registered before the request goes out, so a reply that beats `send` is not lost;
 * a reply nobody waits for (late, or for another process) is ignored. Each wait ends exactly
 * once: by its reply, its abort signal or its deadline, whichever comes first.
 */
export class Replies<T> {
  private readonly waiting = new Map<string, Waiter<T>>();

  async request(id: string, send: () => Promise<unknown> | void, options: RequestOptions<T>): Promise<T> {
    if (this.waiting.has(id)) throw new Error(`already waiting for a reply to ${id}`);
    const reply = new Promise<T>((resolve) => {
      const end = (value: T) => this.end(id, value);
      const onAbort = () => end(options.onAbort());
      const timer = options.deadlineAt === undefined ? undefined : setTimeout(() => end((options.onTimeout ?? options.onAbort)()), Math.max(0, options.deadlineAt - Date.now()));
      this.waiting.set(id, {
        resolve,
        cleanup: () => {
          clearTimeout(timer);
          options.signal?.removeEventListener('abort', onAbort);
        },
      });
      if (options.signal?.aborted) onAbort();
      else options.signal?.addEventListener('abort', onAbort, { once: true });
    });
    try {
      await send();
    } catch (error) {
      // Nothing went out, so nothing will answer: stop waiting and say why.
      this.waiting.get(id)?.cleanup();
      this.waiting.delete(id);
      throw error;
    }
    return reply;
  }

  /** Hand a reply to whoever waits for it; false when nobody does. */
  settle(id: string, reply: T): boolean {
    return this.end(id, reply);
  }

  /** The ids still waiting, oldest first. */
  waitingIds(): string[] {
    return [...this.waiting.keys()];
  }

  private end(id: string, value: T): boolean {
    const waiter = this.waiting.get(id);
    if (!waiter) return false;
    this.waiting.delete(id);
    waiter.cleanup();
    waiter.resolve(value);
    return true;
  }
}
