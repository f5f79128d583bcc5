/**
 * This process's reading of the team's one clock: the store's (`TeamStore.now()`; Redis `TIME`
 * for a team across machines). Deadlines, an idle notice's staleness and "plan approved since
 * it was put in plan mode" compare timestamps written by different processes; on different
 * machines their own clocks differ by seconds or minutes, so every stamp a process writes for
 * others to compare is made on this clock instead: its own clock plus the offset to the store's,
 * measured at the middle of a round trip (the round trip bounds the error).
 */
export class StoreClock {
  private offsetMs = 0;
  private timer: NodeJS.Timeout | undefined;

  constructor(
    private readonly store: { now(): Promise<Date> },
    /** This machine's clock; a test passes a skewed one. */
    private readonly local: () => number = Date.now,
  ) {}

  /** Measure the offset again. A store that cannot be reached keeps the last offset: stamps stay ordered. */
  async sync(): Promise<void> {
    const before = this.local();
    const stored = (await this.store.now()).getTime();
    const after = this.local();
    this.offsetMs = stored - (before + after) / 2;
  }

  /** Measure now, then again every `everyMs` (clocks drift, and NTP steps them) until `stop`. */
  async start(everyMs = 5 * 60_000): Promise<void> {
    await this.sync();
    this.timer = setInterval(() => void this.sync().catch(() => undefined), everyMs);
    this.timer.unref();
  }

  stop(): void {
    clearInterval(this.timer);
  }

  /** Milliseconds since the epoch on the store's clock. */
  nowMs(): number {
    return Math.round(this.local() + this.offsetMs);
  }

  /** An ISO stamp on the store's clock. */
  stamp(): string {
    return new Date(this.nowMs()).toISOString();
  }
}
