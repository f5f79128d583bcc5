/** The most recent `capacity` ids, oldest forgotten first: a dedupe set that cannot grow without bound. */
export class RecentIds {
  private readonly ids = new Set<string>();
  /** The ids in the order added, as a ring: `next` is the oldest once it is full. */
  private readonly ring: (string | undefined)[];
  private next = 0;

  constructor(capacity: number) {
    this.ring = new Array<string | undefined>(capacity).fill(undefined);
  }

  has(id: string): boolean {
    return this.ids.has(id);
  }

  add(id: string): void {
    if (this.ids.has(id)) return;
    const oldest = this.ring[this.next];
    if (oldest !== undefined) this.ids.delete(oldest);
    this.ring[this.next] = id;
    this.next = (this.next + 1) % this.ring.length;
    this.ids.add(id);
  }
}
