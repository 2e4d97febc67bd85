import type { ServiceContext } from "@/lib/auth/context";
import { and, eq } from "drizzle-orm";
import type { Executor } from "@/db/client";
import { apiKeys, rateLimitWindows } from "@/db/schema";
import { notFound } from "@/lib/core/errors";
import { keyWindowKey } from "@/lib/rate-limit/sliding-window";

/** `DELETE /me/keys/{id}`: deletes one of the caller's keys. */
export const deleteKey = (ctx: ServiceContext, keyId: string) => deleteKeyOf(ctx.db, ctx.principal.userId, keyId);

/** Deletes a key of `userId` (an admin deletes anyone's); it stops authenticating with the next request. */
export async function deleteKeyOf(db: Executor, userId: string, keyId: string): Promise<void> {
  const deleted = await db
    .delete(apiKeys)
    .where(and(eq(apiKeys.id, keyId), eq(apiKeys.userId, userId)))
    .returning({ id: apiKeys.id });
  if (deleted.length === 0) throw notFound("API key");
  await db.delete(rateLimitWindows).where(eq(rateLimitWindows.key, keyWindowKey(keyId)));
}
