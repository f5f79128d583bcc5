/**
 * Items that arrive before anyone can handle them: kept in order until a handler is attached,
 * then handed to it, and every later item straight away.
 */
export class Held<T> {
  private waiting: T[] = [];
  private handler: ((item: T) => void) | undefined;

  push(item: T): void {
    if (this.handler) this.handler(item);
    else this.waiting.push(item);
  }

  attach(handler: (item: T) => void): void {
    if (this.handler) throw new Error('a handler is attached already');
    // One at a time from the front: an item pushed while one is handled joins the end, in order.
    for (let item = this.waiting.shift(); item !== undefined; item = this.waiting.shift()) handler(item);
    this.handler = handler;
  }
}
