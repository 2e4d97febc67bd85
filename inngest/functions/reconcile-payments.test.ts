import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { getDb } from "@/db/client";
import { balances, jobRuns } from "@/db/schema";
import { grantCredits } from "@/lib/billing/ledger/ledger";
import { startTestExecutor } from "@/lib/jobs/testing";
import { createActor } from "@/test/factories";
import { call } from "@/test/http";
import { balanceOf, payLocally, paymentRow, siteUrl } from "@/test/payments";
import { POST as TOPUP } from "@/app/(gateway)/billing/topup/route";
import { inngest } from "../../lib/jobs/client";
import { paymentsReconcileRequested } from "../../lib/jobs/events";

let jobs: Awaited<ReturnType<typeof startTestExecutor>>;
beforeAll(async () => {
  jobs = await startTestExecutor();
});
afterAll(() => jobs.uninstall());

describe("reconcile-payments", () => {
  test("a payment paid at the provider whose notification was lost is granted by the sweep, once", async () => {
    const alice = await createActor();
    const res = await call(TOPUP, "/billing/topup", { key: alice.key, body: { amountRub: 700, returnUrl: siteUrl("/back") } });
    // Paid, but the notification goes nowhere (nothing listens on APP_URL in tests).
    await payLocally(res.body.payment.paymentProviderId, "pay");
    expect(await paymentRow(res.body.payment.id)).toMatchObject({ status: "pending" });

    await inngest.send(paymentsReconcileRequested.create({ olderThanMs: 0 }));
    await jobs.drain();
    expect(await paymentRow(res.body.payment.id)).toMatchObject({ status: "succeeded" });
    expect(await balanceOf(alice.user.id)).toBe(7_000_000);

    await inngest.send(paymentsReconcileRequested.create({ olderThanMs: 0 }));
    await jobs.drain();
    expect(await balanceOf(alice.user.id)).toBe(7_000_000);
    const runs = await (await getDb()).select().from(jobRuns).where(eq(jobRuns.functionId, "generation-gateway-reconcile-payments"));
    expect(runs.map((r) => r.status)).toEqual(["completed", "completed"]);
  });

  test("the sweep clears the low-balance mark of a balance that recovered", async () => {
    const bob = await createActor();
    const db = await getDb();
    await grantCredits(db, { userId: bob.user.id, credits: 5_000_000, type: "grant", idempotencyKey: `grant:${bob.user.id}` });
    await db.update(balances).set({ lowBalanceNotifiedAt: new Date() }).where(eq(balances.userId, bob.user.id));
    await inngest.send(paymentsReconcileRequested.create({}));
    await jobs.drain();
    const [row] = await db.select().from(balances).where(eq(balances.userId, bob.user.id));
    expect(row!.lowBalanceNotifiedAt).toBeNull();
  });
});
