import { parseDurationMs } from "./time";

/** The executor's notion of "now": every due time, lease and timeout is measured on it. */
export type Clock = { now(): number };

export const systemClock: Clock = { now: () => Date.now() };

/** A clock tests move by hand: retries and wait timeouts pass without real time passing. */
export class ManualClock implements Clock {
  constructor(private current: number = Date.now()) {}

  now(): number {
    return this.current;
  }

  advance(by: number | string): number {
    this.current += typeof by === "number" ? by : parseDurationMs(by);
    return this.current;
  }

  set(to: number | Date): void {
    this.current = typeof to === "number" ? to : to.getTime();
  }
}

export const isManualClock = (clock: Clock): clock is ManualClock => "advance" in clock && "set" in clock;
