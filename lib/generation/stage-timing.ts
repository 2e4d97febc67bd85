/**
 * Per-stage times of one sync generation, for the `Server-Timing` header of `/run` (the gateway
 * bench reads it to say where the time goes). Cheap: a few performance.now() calls per request.
 */
export type Stage = "model" | "reserve" | "dispatch" | "provider" | "settle";

const timings = new WeakMap<object, Partial<Record<Stage, number>>>();

export function stageClock(owner: object) {
  const record: Partial<Record<Stage, number>> = {};
  timings.set(owner, record);
  let last = performance.now();
  return (stage: Stage) => {
    const now = performance.now();
    record[stage] = (record[stage] ?? 0) + (now - last);
    last = now;
  };
}

export function serverTiming(owner: object): string {
  const record = timings.get(owner) ?? {};
  return Object.entries(record)
    .map(([stage, ms]) => `${stage};dur=${ms!.toFixed(2)}`)
    .join(", ");
}
