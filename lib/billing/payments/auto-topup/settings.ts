import type { ServiceContext } from "@/lib/auth/context";
import { eq } from "drizzle-orm";
import type { Executor } from "@/db/client";
import { autoTopupSettings } from "@/db/schema";
import { env } from "@/lib/core/env";
import { DomainError } from "@/lib/core/errors";
import { forgetThresholdCache } from "../threshold-cache";

export type AutoTopupSettings = { enabled: boolean; thresholdRub: number; amountRub: number };

export async function getAutoTopupSettings(db: Executor, userId: string): Promise<AutoTopupSettings> {
  const [row] = await db.select().from(autoTopupSettings).where(eq(autoTopupSettings.userId, userId));
  return { enabled: row?.enabled ?? false, thresholdRub: row?.thresholdRub ?? 0, amountRub: row?.amountRub ?? 0 };
}

/** PATCH /me/auto-topup: an upsert of the user's settings; whole rubles. */
export async function updateAutoTopup({ db, principal: { userId } }: ServiceContext, input: AutoTopupSettings): Promise<AutoTopupSettings> {
  const min = env().MIN_TOPUP_RUB;
  if (input.amountRub < min) {
    throw new DomainError("minimum_topup", `An automatic top-up is at least ${min} ₽`, {
      recovery: { action: "topup", url: "/billing/topup", minAmountRub: min },
    });
  }
  const [row] = await db
    .insert(autoTopupSettings)
    .values({ userId, ...input })
    .onConflictDoUpdate({ target: autoTopupSettings.userId, set: { ...input, updatedAt: new Date() } })
    .returning();
  forgetThresholdCache();
  return { enabled: row!.enabled, thresholdRub: row!.thresholdRub, amountRub: row!.amountRub };
}
