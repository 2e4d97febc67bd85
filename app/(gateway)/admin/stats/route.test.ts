import { describe, expect, test } from "vitest";
import { sql } from "drizzle-orm";
import { getDb, rawRows } from "@/db/client";
import { generationRequests, models, type RouteAttempt } from "@/db/schema";
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
      providers: before.body.providers,
    });
  });

  test("each provider's jobs, failovers, start latency and money; sandbox jobs count as jobs, not as money", async () => {
    const session = await adminSession();
    const user = await createUser();
    const db = await getDb();
    const at = (ms: number) => new Date(Date.parse("2026-11-01T10:00:00Z") + ms);
    const attempt = (provider: string, outcome: RouteAttempt["outcome"]): RouteAttempt => ({
      provider,
      outcome,
      reason: "test",
      at: at(0).toISOString(),
    });
    const job = (o: Partial<typeof generationRequests.$inferInsert>) => ({
      id: crypto.randomUUID(),
      userId: user.id,
      modelId: "fal-ai/flux/dev",
      surface: "gateway" as const,
      mode: "queue" as const,
      input: { prompt: "a fox" },
      provider: "fal",
      ...o,
    });
    await db.insert(generationRequests).values([
      // fal served four: two completed (one of unknown cost), one failed, one not yet submitted.
      job({
        status: "completed",
        submittedAt: at(0),
        startedAt: at(1_000),
        costSettledCredits: 500,
        providerCostCredits: 300,
        attempts: [attempt("replicate", "refused")],
      }),
      job({ status: "completed", submittedAt: at(0), startedAt: at(3_000), costSettledCredits: 700 }),
      job({
        status: "failed",
        submittedAt: at(0),
        startedAt: at(2_000),
        costSettledCredits: 0,
        attempts: [attempt("replicate", "not_started"), attempt("local", "skipped")],
      }),
      job({ status: "queued" }),
      // local: a sandbox job (no money) and a cancelled one that never started.
      job({
        provider: "local",
        sandbox: true,
        status: "completed",
        submittedAt: at(0),
        startedAt: at(500),
        costSettledCredits: 900,
        providerCostCredits: 100,
      }),
      job({ provider: "local", status: "cancelled", submittedAt: at(0) }),
    ]);
    const res = await call(GET, "/admin/stats", { session });
    expect(res.status).toBe(200);
    expect(adminStatsSchema.parse(res.body)).toEqual(res.body);
    const none = { jobs: 0, completed: 0, failed: 0, costCredits: 0, costUnknownJobs: 0, revenueCredits: 0, marginCredits: 0 };
    expect(res.body.providers).toEqual([
      {
        provider: "fal",
        jobs: 4,
        completed: 2,
        failed: 1,
        failovers: 0,
        startLatencyMs: { p50: 2_000, p95: 2_900 },
        costCredits: 300,
        costUnknownJobs: 1,
        revenueCredits: 1_200,
        marginCredits: 900,
      },
      { ...none, provider: "local", jobs: 2, completed: 1, failovers: 0, startLatencyMs: { p50: 500, p95: 500 } },
      { ...none, provider: "replicate", failovers: 2, startLatencyMs: { p50: null, p95: null } },
    ]);
  });

  runAuthContract("GET /admin/stats", GET, "/admin/stats", "admin");
});
