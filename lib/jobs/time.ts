/**
 * Durations as the SDK protocol writes them: Go-style time strings ("2s", "1h30m", "1.5d") or an
 * ISO 8601 instant (waitForEvent with a Date timeout).
 */
const UNIT_MS: Record<string, number> = {
  ns: 1e-6,
  us: 1e-3,
  µs: 1e-3,
  ms: 1,
  s: 1000,
  m: 60_000,
  h: 3_600_000,
  d: 86_400_000,
  w: 604_800_000,
};
const PART = /(\d+(?:\.\d+)?)(ns|us|µs|ms|s|m|h|d|w)/g;
const WHOLE = /^(?:\d+(?:\.\d+)?(?:ns|us|µs|ms|s|m|h|d|w))+$/;

/** Milliseconds in a time string; throws on anything else. */
export function parseDurationMs(value: string): number {
  const text = value.trim();
  if (!WHOLE.test(text)) throw new Error(`not a duration: ${JSON.stringify(value)}`);
  let total = 0;
  for (const [, amount, unit] of text.matchAll(PART)) total += Number(amount) * UNIT_MS[unit!]!;
  return Math.round(total);
}

/** When something described by a time string or an ISO instant, started at `now`, is due. */
export function dueAt(value: string, now: number): number {
  if (WHOLE.test(value.trim())) return now + parseDurationMs(value);
  const at = Date.parse(value);
  if (Number.isNaN(at)) throw new Error(`not a duration or an instant: ${JSON.stringify(value)}`);
  return at;
}

/** A `Retry-After` value: seconds, or an HTTP/ISO date (the SDK sends either). */
export function retryAfterMs(value: string | null, now: number): number | undefined {
  if (!value) return undefined;
  if (/^\d+(\.\d+)?$/.test(value.trim())) return Math.round(Number(value) * 1000);
  const at = Date.parse(value);
  return Number.isNaN(at) ? undefined : Math.max(0, at - now);
}

/**
 * Exponential backoff, 1 s·2^attempt capped at 10 minutes, with ±20 % jitter so a burst of
 * failures does not retry in lockstep. The driver passes the attempt about to be made, so the
 * first retry waits 2 s.
 */
export function backoffMs(attempt: number, random: () => number = Math.random): number {
  const base = Math.min(1000 * 2 ** attempt, 10 * 60_000);
  return Math.round(base * (0.8 + 0.4 * random()));
}
