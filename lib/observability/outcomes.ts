/**
 * The last outcome of calls to an outside service the app cannot cheaply ping (the payment
 * provider): its client reports each call's ending here, and /health reads it. Passive, so it
 * costs nothing when the service is idle, and says nothing about a service not called lately.
 */
export type Outcome = { ok: boolean; at: number };
export type Dependency = "yookassa";

const outcomes = ((globalThis as unknown as { __gwOutcomes?: Map<Dependency, Outcome> }).__gwOutcomes ??= new Map());

/** `ok`: the service answered (a refusal is an answer); not `ok`: unreachable, timed out or 5xx after retries. */
export function reportOutcome(dependency: Dependency, ok: boolean, at = Date.now()): void {
  outcomes.set(dependency, { ok, at });
}

export const lastOutcome = (dependency: Dependency): Outcome | undefined => outcomes.get(dependency);

/** Tests: forget every outcome. */
export function resetOutcomes(): void {
  outcomes.clear();
}
