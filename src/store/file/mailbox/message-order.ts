/**
 * Items (messages) from several writers in one order: by id (ids sort by send time), except
 * that no writer's message ever comes before one it wrote earlier, whatever their ids say.
 */
export class MessageOrder<T> {
  private readonly items: { item: T; writer: string; key: string }[] = [];
  /** The greatest id of each writer so far: a message sorts no earlier than its writer's previous one. */
  private readonly latest = new Map<string, string>();

  add(writer: string, id: string, item: T): void {
    const previous = this.latest.get(writer);
    const key = previous !== undefined && previous > id ? previous : id;
    this.latest.set(writer, key);
    this.items.push({ item, writer, key });
  }

  /** Sorted by key, then writer; a stable sort keeps each writer's own order among equal keys. */
  sorted(): T[] {
    const order = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0);
    return [...this.items].sort((a, b) => order(a.key, b.key) || order(a.writer, b.writer)).map((entry) => entry.item);
  }
}
