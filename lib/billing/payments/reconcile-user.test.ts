import { eq } from "drizzle-orm";
import { describe, expect, test } from "vitest";
import { getDb } from "@/db/client";
import { payments } from "@/db/schema";
import { createActor } from "@/test/factories";
import { call } from "@/test/http";
import { balanceOf, payLocally, paymentRow, siteUrl } from "@/test/payments";
import { POST as TOPUP } from "@/app/(gateway)/billing/topup/route";
import { reconcileUserPending } from "./reconcile-user";

async function paidWithoutNotification(key: string, amountRub: number) {
  const res = await call(TOPUP, "/billing/topup", { key, body: { amountRub, returnUrl: siteUrl("/back") } });
  // Nothing listens on APP_URL in tests: the provider's notification is lost.
  await payLocally(res.body.payment.paymentProviderId, "pay");
  return res.body.payment.id as string;
}

describe("reconcile on return", () => {
  test("the user's recent pending payments are re-read and granted; older ones are left to the sweep", async () => {
    const alice = await createActor();
    const recent = await paidWithoutNotification(alice.key, 200);
    const old = await paidWithoutNotification(alice.key, 300);
    await (
      await getDb()
    )
      .update(payments)
      .set({ createdAt: new Date(Date.now() - 2 * 86_400_000) })
      .where(eq(payments.id, old));

    await reconcileUserPending(await getDb(), alice.user.id);
    expect(await paymentRow(recent)).toMatchObject({ status: "succeeded" });
    expect(await paymentRow(old)).toMatchObject({ status: "pending" });
    expect(await balanceOf(alice.user.id)).toBe(2_000_000);
  });
});
