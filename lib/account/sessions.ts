import type { ServiceContext } from "@/lib/auth/context";
import { and, desc, eq, gt } from "drizzle-orm";
import type { Executor } from "@/db/client";
import { sessions } from "@/db/schema";
import { notFound } from "@/lib/core/errors";

/** `GET /me/sessions`: the caller's live sessions, the one they call with marked `current`. */
export const listSessions = (ctx: ServiceContext) => sessionsOf(ctx.db, ctx.principal.userId, ctx.principal.sessionId);

/**
 * A user's live sessions, newest first (the admin's user view reads anyone's). The cookie value
 * (`sessionToken`) is never selected: only the public `id` leaves the database.
 */
export async function sessionsOf(db: Executor, userId: string, currentSessionId: string | null = null, now = new Date()) {
  const rows = await db
    .select({
      id: sessions.id,
      expiresAt: sessions.expires,
      ipAddress: sessions.ipAddress,
      userAgent: sessions.userAgent,
      createdAt: sessions.createdAt,
      updatedAt: sessions.updatedAt,
    })
    .from(sessions)
    .where(and(eq(sessions.userId, userId), gt(sessions.expires, now)))
    .orderBy(desc(sessions.createdAt));
  return rows.map((r) => ({
    ...r,
    expiresAt: r.expiresAt.toISOString(),
    createdAt: r.createdAt.toISOString(),
    updatedAt: r.updatedAt.toISOString(),
    current: r.id === currentSessionId,
  }));
}

export type SessionView = Awaited<ReturnType<typeof sessionsOf>>[number];

/** Revokes one session of `userId`; another user's session is exactly as missing as a missing one. */
export async function revokeSession({ db, principal: { userId } }: ServiceContext, sessionId: string): Promise<void> {
  const deleted = await db
    .delete(sessions)
    .where(and(eq(sessions.id, sessionId), eq(sessions.userId, userId)))
    .returning({ id: sessions.id });
  if (deleted.length === 0) throw notFound("Session");
}

/** Signs a user out everywhere (admin action, and part of a ban). */
export async function revokeAllSessions(db: Executor, userId: string): Promise<number> {
  const deleted = await db.delete(sessions).where(eq(sessions.userId, userId)).returning({ id: sessions.id });
  return deleted.length;
}
