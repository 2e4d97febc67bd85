import type { ServiceContext } from "@/lib/auth/context";
import type { z } from "zod";
import type { updateKeyBody } from "./key-input";
import { DomainError } from "@/lib/core/errors";
import { toApiKey } from "./key-view";
import { patchKey } from "./patch-key";

/**
 * PATCH /me/keys/{id}. With an API key only the name may change: the spending cap and `enabled`
 * are limits a leaked key must not be able to lift, so they are dashboard-only (403).
 */
export async function updateApiKey(ctx: ServiceContext, keyId: string, body: z.output<typeof updateKeyBody>) {
  if (ctx.principal.source !== "session" && (body.metadata !== undefined || body.enabled !== undefined)) {
    throw new DomainError("forbidden", "The spending cap and enabled flag can be changed only in the dashboard");
  }
  const row = await patchKey(ctx.db, ctx.principal.userId, keyId, {
    name: body.name,
    enabled: body.enabled,
    monthlyLimitRub: body.metadata?.monthlyLimitRub,
  });
  return toApiKey(row);
}
