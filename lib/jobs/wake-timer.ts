import type { Clock } from "./clock";

/** One pending wake-up of the executor's loop at the earliest time asked for (executor clock). */
export class WakeTimer {
  private timer: NodeJS.Timeout | undefined;
  private immediate: NodeJS.Immediate | undefined;
  /** When the pending wake-up fires (Infinity: none pending). */
  private at = Infinity;

  constructor(
    private readonly clock: Clock,
    private readonly fire: () => void,
  ) {}

  /** Fires no later than `at`; an earlier wake-up already pending stands. */
  schedule(at: number): void {
    if (at >= this.at) return;
    this.clear();
    this.at = at;
    const delay = at - this.clock.now();
    if (delay <= 0) {
      this.immediate = setImmediate(() => this.run());
    } else {
      this.timer = setTimeout(() => this.run(), delay);
      this.timer.unref?.();
    }
  }

  clear(): void {
    clearTimeout(this.timer);
    if (this.immediate) clearImmediate(this.immediate);
    this.timer = undefined;
    this.immediate = undefined;
    this.at = Infinity;
  }

  private run() {
    const at = this.at;
    this.at = Infinity;
    this.timer = undefined;
    // Node may run a timer a millisecond before the clock reads its time: the work due then would
    // not be claimable yet, and the loop would sleep until its next poll. Wait out the rest.
    if (this.clock.now() < at) return this.schedule(at);
    this.fire();
  }
}
