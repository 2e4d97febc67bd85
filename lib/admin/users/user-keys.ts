import type { z } from "zod";
import type { Executor } from "@/db/client";
import type { adminUpdateKeyBody } from "./inputs";
import { desc, eq } from "drizzle-orm";
import { apiKeys } from "@/db/schema";
import { pendingCountsWritten, selectKeys, toAdminKeyView, toApiKey } from "@/lib/account/keys/key-view";
import { patchKey } from "@/lib/account/keys/patch-key";

/** PATCH /admin/users/{id}/keys/{keyId}: the key must belong to that user, else 404. */
export async function tuneUserKey(db: Executor, userId: string, keyId: string, body: z.output<typeof adminUpdateKeyBody>) {
  const row = await patchKey(db, userId, keyId, {
    name: body.name,
    enabled: body.enabled,
    monthlyLimitRub: body.metadata?.monthlyLimitRub,
    rateLimitEnabled: body.rateLimitEnabled,
    rateLimitTimeWindow: body.rateLimitTimeWindow,
    rateLimitMax: body.rateLimitMax,
  });
  return toAdminKeyView(row);
}

/** The admin page's key list: each key as users see it, plus its tuning view. */
export async function listUserKeysWithTuning(db: Executor, userId: string) {
  await pendingCountsWritten(db);
  const rows = await selectKeys(db).where(eq(apiKeys.userId, userId)).orderBy(desc(apiKeys.createdAt));
  return rows.map((row) => ({ ...toApiKey(row), tuning: toAdminKeyView(row) }));
}

export type TunedKey = Awaited<ReturnType<typeof listUserKeysWithTuning>>[number];
