import { and, eq } from "drizzle-orm";
import type { Executor } from "@/db/client";
import { apiKeys } from "@/db/schema";
import { notFound } from "@/lib/core/errors";
import { selectKeys, type KeyRow } from "./key-view";

export type KeyPatch = {
  name?: string;
  enabled?: boolean;
  monthlyLimitRub?: number | null;
  rateLimitEnabled?: boolean;
  rateLimitTimeWindow?: number;
  rateLimitMax?: number | null;
};

/**
 * Updates a key of `userId` (the owner is in the WHERE, so another user's key is exactly as
 * missing as a missing one) and returns its row as every view reads it.
 */
export async function patchKey(db: Executor, userId: string, keyId: string, patch: KeyPatch): Promise<KeyRow> {
  const set = Object.fromEntries(Object.entries(patch).filter(([, v]) => v !== undefined)) as Partial<typeof apiKeys.$inferInsert>;
  const where = and(eq(apiKeys.id, keyId), eq(apiKeys.userId, userId));
  const updated =
    Object.keys(set).length > 0
      ? await db.update(apiKeys).set(set).where(where).returning({ id: apiKeys.id })
      : await db.select({ id: apiKeys.id }).from(apiKeys).where(where);
  if (updated.length === 0) throw notFound("API key");
  const [row] = await selectKeys(db).where(where);
  if (!row) throw notFound("API key");
  return row;
}
