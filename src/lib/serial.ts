/** Queues a task; resolves once it has run (never rejects: a failure goes to the queue's onError). */
export type Serial = (task: () => Promise<unknown>) => Promise<void>;

/**
 * Run asynchronous tasks one after another, in the order they were queued. For writes made
 * from event handlers that cannot wait, such as a member's status as its turns start and end:
 * a store may answer two writes in either order, and the later status must land last. A
 * task's failure goes to `onError`; the tasks after it still run.
 */
export function createSerial(onError: (error: unknown) => void): Serial {
  let tail: Promise<void> = Promise.resolve();
  return (task) => {
    tail = tail.then(task).then(
      () => undefined,
      (error: unknown) => onError(error),
    );
    return tail;
  };
}
