import { describe, expect, test } from "vitest";
import { sql } from "drizzle-orm";
import { getDb, rawRows } from "@/db/client";
import { models } from "@/db/schema";
import { adminStatsSchema } from "@/lib/http/contracts/admin-money";
import { clawbackCredits, refundGeneration, reserveCredits } from "@/lib/billing/ledger/ledger";
import { runAuthContract } from "@/test/auth-contract";
import { createApiKey, createSession, createUser } from "@/test/factories";
import { call } from "@/test/http";
import { grant } from "@/test/money";
import { GET } from "./route";

async function adminSession() {
  const admin = await createUser({ role: "admin" });
  return (await createSession(admin)).token;
}

describe("GET /admin/stats", () => {
  test("counts users, live keys (not disabled or expired) and catalog models; credits issued and used come from the ledger", async () => {
    const session = await adminSession();
    const before = await call(GET, "/admin/stats", { session });
    expect(before.status).toBe(200);
    expect(adminStatsSchema.parse(before.body)).toEqual(before.body);
    const db = await getDb();
    const catalog = await db.$count(models);
    expect(before.body.models).toBe(catalog);

    const a = await createUser();
    const b = await createUser();
    await createApiKey(a);
    await createApiKey(a, { mode: "test" });
    await createApiKey(b, { enabled: false });
    await createApiKey(b, { expiresAt: new Date(Date.now() - 1000) });
    await createApiKey(b, { expiresAt: new Date(Date.now() + 86_400_000) });
    await grant(a.id, 100_000, "topup");
    await grant(b.id, 20_000, "grant");
    await clawbackCredits(db, { userId: b.id, credits: 5_000, idempotencyKey: `t-claw-${b.id}` });
    const g1 = crypto.randomUUID();
    await reserveCredits(db, { userId: a.id, apiKeyId: null, generationId: g1, credits: 3_000 });
    const g2 = crypto.randomUUID();
    await reserveCredits(db, { userId: a.id, apiKeyId: null, generationId: g2, credits: 1_000 });
    await refundGeneration(db, { userId: a.id, apiKeyId: null, generationId: g2, credits: 1_000 });

    const after = await call(GET, "/admin/stats", { session });
    // The figures agree with the ledger's own rows, over the whole database.
    const [ledger] = await rawRows<{ issued: string; used: string }>(
      db,
      sql`select coalesce(sum(amount) filter (where type in ('topup', 'grant', 'clawback')), 0) as issued,
                 coalesce(-sum(amount) filter (where type like 'generation%'), 0) as used
            from credit_transactions`,
    );
    expect(after.body.credits).toEqual({ issued: Number(ledger!.issued), used: Number(ledger!.used) });
    expect(after.body).toEqual({
      users: before.body.users + 2,
      activeApiKeys: before.body.activeApiKeys + 3,
      models: catalog,
      credits: { issued: before.body.credits.issued + 115_000, used: before.body.credits.used + 3_000 },
    });
  });

  runAuthContract("GET /admin/stats", GET, "/admin/stats", "admin");
});
