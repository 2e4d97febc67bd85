/**
 * Per-stage times of one request for its `Server-Timing` header (the gateway bench reads it to
 * say where the time goes). A route opts in with `serverTiming: true` in withGateway/withSkill;
 * the handler records `auth`, `ratelimit`, `parse`, domain code records its own stages through
 * `lap(owner, stage)` with the same owner (the Request), and the rest until the response object
 * exists is `respond`. Cheap: a few performance.now() calls per request; a no-op when the request
 * did not opt in.
 */
type Clock = { start: number; last: number; stages: Map<string, number> };

const clocks = new WeakMap<object, Clock>();

export function startTiming(owner: object): void {
  const now = performance.now();
  clocks.set(owner, { start: now, last: now, stages: new Map() });
}

/** Charges the time since the previous lap (or the start) to `stage`. */
export function lap(owner: object | undefined, stage: string): void {
  const clock = owner && clocks.get(owner);
  if (!clock) return;
  const now = performance.now();
  clock.stages.set(stage, (clock.stages.get(stage) ?? 0) + (now - clock.last));
  clock.last = now;
}

/** A lap function bound to one owner (no-op without one). */
export const lapper = (owner: object | undefined) => (stage: string) => lap(owner, stage);

/** `auth;dur=0.41, ratelimit;dur=0.90, …, total;dur=7.12`, or null when the request was not timed. */
export function serverTimingOf(owner: object): string | null {
  const clock = clocks.get(owner);
  if (!clock) return null;
  const parts = [...clock.stages].map(([stage, ms]) => `${stage};dur=${ms.toFixed(2)}`);
  parts.push(`total;dur=${(performance.now() - clock.start).toFixed(2)}`);
  return parts.join(", ");
}
