import { and, eq } from "drizzle-orm";
import type { Executor } from "@/db/client";
import { apiKeys, rateLimitWindows } from "@/db/schema";
import { notFound } from "@/lib/errors";
import { keyWindowKey } from "@/lib/rate-limit/sliding-window";

/** Deletes a key of `userId`; it stops authenticating with the next request. */
export async function deleteKey(db: Executor, userId: string, keyId: string): Promise<void> {
  const deleted = await db
    .delete(apiKeys)
    .where(and(eq(apiKeys.id, keyId), eq(apiKeys.userId, userId)))
    .returning({ id: apiKeys.id });
  if (deleted.length === 0) throw notFound("API key");
  await db.delete(rateLimitWindows).where(eq(rateLimitWindows.key, keyWindowKey(keyId)));
}
