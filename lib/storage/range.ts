import { RangeNotSatisfiable, type ByteRange, type RangeRequest } from "./types";

/**
 * Parses a `Range` header. Only a single `bytes` range is honoured; anything else (several
 * ranges, other units, bad syntax) is ignored and the whole object is served, as RFC 9110 allows.
 */
export function parseRangeHeader(header: string | null): RangeRequest | undefined {
  if (!header) return undefined;
  const m = /^\s*bytes\s*=\s*(\d*)\s*-\s*(\d*)\s*$/i.exec(header);
  if (!m || (m[1] === "" && m[2] === "")) return undefined;
  if (m[1] === "") return { suffix: Number(m[2]) };
  const start = Number(m[1]);
  if (m[2] === "") return { start };
  const end = Number(m[2]);
  return end < start ? undefined : { start, end };
}

/** Resolves a range against the object's size; throws RangeNotSatisfiable when it misses. */
export function resolveRange(range: RangeRequest, totalBytes: number): ByteRange {
  if ("suffix" in range) {
    if (range.suffix === 0 || totalBytes === 0) throw new RangeNotSatisfiable(totalBytes);
    return { start: Math.max(0, totalBytes - range.suffix), end: totalBytes - 1 };
  }
  if (range.start >= totalBytes) throw new RangeNotSatisfiable(totalBytes);
  return { start: range.start, end: Math.min(range.end ?? totalBytes - 1, totalBytes - 1) };
}

export function rangeHeaderValue(range: RangeRequest): string {
  return "suffix" in range ? `bytes=-${range.suffix}` : `bytes=${range.start}-${range.end ?? ""}`;
}
