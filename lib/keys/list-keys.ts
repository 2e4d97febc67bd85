import { desc, eq } from "drizzle-orm";
import type { Executor } from "@/db/client";
import { apiKeys } from "@/db/schema";
import { selectKeys, toApiKey } from "./key-view";

/** A user's keys, newest first (api_keys_user_created_idx). */
export async function listKeys(db: Executor, userId: string) {
  const rows = await selectKeys(db).where(eq(apiKeys.userId, userId)).orderBy(desc(apiKeys.createdAt));
  return rows.map(toApiKey);
}
