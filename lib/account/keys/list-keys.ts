import { desc, eq } from "drizzle-orm";
import type { ServiceContext } from "@/lib/auth/context";
import type { Executor } from "@/db/client";
import { apiKeys } from "@/db/schema";
import { pendingCountsWritten, selectKeys, toApiKey } from "./key-view";

/** `GET /me/keys`: the caller's keys. */
export const listKeys = (ctx: ServiceContext) => keysOf(ctx.db, ctx.principal.userId);

/** A user's keys, newest first (api_keys_user_created_idx); the admin's user view reads anyone's. */
export async function keysOf(db: Executor, userId: string) {
  await pendingCountsWritten(db);
  const rows = await selectKeys(db).where(eq(apiKeys.userId, userId)).orderBy(desc(apiKeys.createdAt));
  return rows.map(toApiKey);
}
