export type Listener<E> = (event: E) => void;

/** A tiny typed event stream: subscribe returns the unsubscribe function. */
export class EventStream<E> {
  private readonly listeners = new Set<Listener<E>>();

  subscribe(listener: Listener<E>): () => void {
    this.listeners.add(listener);
    return () => {
      this.listeners.delete(listener);
    };
  }

  emit(event: E): void {
    for (const listener of [...this.listeners]) listener(event);
  }
}
