import type { ServiceContext } from "@/lib/auth/context";
import { eq } from "drizzle-orm";
import type { z } from "zod";
import { sessions, users } from "@/db/schema";
import type { banBody } from "./inputs";
import { DomainError, notFound } from "@/lib/core/errors";

/**
 * Bans a user and revokes their sessions in one transaction. Keys are not deleted: the resolver
 * answers 403 for them while the ban is in force, and they work again once it lifts.
 */
export async function banUser(ctx: ServiceContext, userId: string, body: z.output<typeof banBody>): Promise<void> {
  if (userId === ctx.principal.userId) throw new DomainError("forbidden", "You cannot ban yourself");
  await ctx.db.transaction(async (tx) => {
    const updated = await tx
      .update(users)
      .set({ banned: true, banReason: body.reason ?? null, banExpires: body.expiresAt ? new Date(body.expiresAt) : null })
      .where(eq(users.id, userId))
      .returning({ id: users.id });
    if (updated.length === 0) throw notFound("User");
    await tx.delete(sessions).where(eq(sessions.userId, userId));
  });
}

export async function unbanUser(ctx: ServiceContext, userId: string): Promise<void> {
  const updated = await ctx.db
    .update(users)
    .set({ banned: false, banReason: null, banExpires: null })
    .where(eq(users.id, userId))
    .returning({ id: users.id });
  if (updated.length === 0) throw notFound("User");
}
