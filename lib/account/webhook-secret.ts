import type { ServiceContext } from "@/lib/auth/context";
import { randomBytes } from "node:crypto";
import { eq } from "drizzle-orm";
import type { Executor } from "@/db/client";
import { webhookSecrets } from "@/db/schema";
import { open, seal } from "@/lib/auth/secret-box";
import { log } from "@/lib/core/logger";

const PURPOSE = "webhook-secret";

/** Standard Webhooks format: `whsec_` + base64 of 32 random bytes (the spec allows 24–64). */
export const newWebhookSecret = () => `whsec_${randomBytes(32).toString("base64")}`;

/**
 * A user's webhook signing secret, created on first use. Stored sealed (lib/auth/secret-box.ts)
 * because deliveries must read it back; this is the function the delivery code signs with.
 */
export async function webhookSecretOf(db: Executor, userId: string): Promise<string> {
  const [row] = await db.select({ secret: webhookSecrets.secret }).from(webhookSecrets).where(eq(webhookSecrets.userId, userId));
  if (row) {
    const plain = open(row.secret, PURPOSE, userId);
    if (plain) return plain;
    // Sealed under a previous AUTH_SECRET: unrecoverable, so the only way forward is a new one.
    log.warn("webhook secret unreadable (AUTH_SECRET changed?); issuing a new one", { userId });
    return replaceSecret(db, userId);
  }
  const fresh = newWebhookSecret();
  const inserted = await db
    .insert(webhookSecrets)
    .values({ userId, secret: seal(fresh, PURPOSE, userId) })
    .onConflictDoNothing()
    .returning({ userId: webhookSecrets.userId });
  // Lost a race with a concurrent first read: theirs is the secret.
  return inserted.length > 0 ? fresh : webhookSecretOf(db, userId);
}

/** `GET /me/webhook-secret`: the caller's secret (created on first read). */
export const getWebhookSecret = (ctx: ServiceContext) => webhookSecretOf(ctx.db, ctx.principal.userId);

/** Replaces the caller's secret; callbacks signed from now on use the new one. */
export const rotateWebhookSecret = (ctx: ServiceContext) => replaceSecret(ctx.db, ctx.principal.userId);

async function replaceSecret(db: Executor, userId: string): Promise<string> {
  const fresh = newWebhookSecret();
  const sealed = seal(fresh, PURPOSE, userId);
  await db
    .insert(webhookSecrets)
    .values({ userId, secret: sealed, rotatedAt: new Date() })
    .onConflictDoUpdate({ target: webhookSecrets.userId, set: { secret: sealed, rotatedAt: new Date() } });
  return fresh;
}
