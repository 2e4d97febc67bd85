import { env } from "@/lib/core/env";
import { DomainError } from "@/lib/core/errors";
import { processWide } from "@/lib/core/process-wide";

// Process-wide: every stream route (gateway, skill, MCP) is its own server chunk, and one cap covers them all.
const open = processWide("streams.open-per-user", () => new Map<string, number>());

/**
 * One user may hold at most STREAMS_PER_USER_MAX streams open at once per instance; past that,
 * 429 until one closes. Per instance on purpose: an open stream costs its instance a socket and a
 * little memory and the database nothing while idle (event-hub.ts), so a cluster-wide count would
 * protect nothing shared and cost a write per open and close (docs/streams.md, Limits).
 * Returns the release, which is safe to call more than once.
 */
export function takeStreamSlot(userId: string): () => void {
  const max = env().STREAMS_PER_USER_MAX;
  const count = open.get(userId) ?? 0;
  if (count >= max) {
    throw new DomainError("rate_limited", `At most ${max} streams may be open at once; close one first`, {}, { "Retry-After": "1" });
  }
  open.set(userId, count + 1);
  let released = false;
  return () => {
    if (released) return;
    released = true;
    const left = (open.get(userId) ?? 1) - 1;
    if (left > 0) open.set(userId, left);
    else open.delete(userId);
  };
}
