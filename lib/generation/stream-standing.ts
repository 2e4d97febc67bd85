import { and, eq, gt } from "drizzle-orm";
import type { Executor } from "@/db/client";
import { apiKeys, sessions, users } from "@/db/schema";
import type { Principal } from "@/lib/auth/principal";
import { DomainError } from "@/lib/core/errors";

/**
 * Whether the caller who opened a stream may still read it. A request is authorized once, when it
 * arrives; a stream outlives that, so it re-reads its caller's standing as it goes: the API key
 * (deleted, disabled, expired) or the session (signed out, expired), and the user (banned). The
 * same rules as lib/auth/resolve.ts applies to each request. Null while the caller stands; else
 * the refusal the caller would now get for a new request (401 or 403).
 */
export async function streamCallerRefusal(db: Executor, principal: Principal, now = new Date()): Promise<DomainError | null> {
  return (await callerStanding(db, principal, now)).refusal;
}

/**
 * `streamCallerRefusal`, and while the caller stands, the moment its standing lapses by itself
 * (the key's or the session's expiry; ms since epoch, null if never): a stream woken only by change
 * notices (event-hub.ts) sets a timer for it instead of re-reading on a schedule.
 */
export async function callerStanding(
  db: Executor,
  principal: Principal,
  now = new Date(),
): Promise<{ refusal: DomainError | null; lapsesAt: number | null }> {
  const ban = { banned: users.banned, banExpires: users.banExpires };
  if (principal.apiKeyId) {
    const [row] = await db
      .select({ enabled: apiKeys.enabled, expiresAt: apiKeys.expiresAt, ...ban })
      .from(apiKeys)
      .innerJoin(users, eq(users.id, apiKeys.userId))
      .where(eq(apiKeys.id, principal.apiKeyId))
      .limit(1);
    if (!row) return refused(new DomainError("unauthorized", "The API key was deleted"));
    if (!row.enabled) return refused(new DomainError("unauthorized", "API key is disabled"));
    if (row.expiresAt && row.expiresAt <= now) return refused(new DomainError("unauthorized", "API key has expired"));
    return { refusal: banned(row, now), lapsesAt: row.expiresAt?.getTime() ?? null };
  }
  if (principal.sessionId) {
    const [row] = await db
      .select({ ...ban, expires: sessions.expires })
      .from(sessions)
      .innerJoin(users, eq(users.id, sessions.userId))
      .where(and(eq(sessions.id, principal.sessionId), gt(sessions.expires, now)))
      .limit(1);
    if (!row) return refused(new DomainError("unauthorized", "The session has ended; sign in again"));
    return { refusal: banned(row, now), lapsesAt: row.expires.getTime() };
  }
  return { refusal: null, lapsesAt: null };
}

const refused = (refusal: DomainError) => ({ refusal, lapsesAt: null });

function banned(user: { banned: boolean; banExpires: Date | null }, now: Date): DomainError | null {
  return user.banned && (!user.banExpires || user.banExpires > now) ? new DomainError("forbidden", "This account is banned") : null;
}
