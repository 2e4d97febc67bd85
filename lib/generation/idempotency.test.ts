import { and, eq, sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { getDb } from "@/db/client";
import { idempotencyKeys } from "@/db/schema";
import { POST as INTEGRATION } from "@/app/(gateway)/integrations/[...path]/route";
import { GET as OPENAPI } from "@/app/(gateway)/openapi.json/route";
import { POST as QUEUE } from "@/app/(gateway)/queue/[...path]/route";
import { POST as RUN } from "@/app/(gateway)/run/[...path]/route";
import { POST as GENERATE } from "@/app/api/v1/generate/route";
import { grantCredits } from "@/lib/billing/ledger/ledger";
import { ManualClock } from "@/lib/jobs/clock";
import { startTestExecutor } from "@/lib/jobs/testing";
import { createActor, createApiKey } from "@/test/factories";
import { balanceOf, fundedActor, jobRow, jobsOf, ledgerOf, pathOf, simulatorRequestsFor } from "@/test/generation";
import { withEnv } from "@/test/env";
import { call } from "@/test/http";

const FLUX = "fal-ai/flux/dev";
// 2.25 ₽ per megapixel × 1024×1024 (square_hd) = 2.359296 ₽ → 2.3593 ₽.
const FLUX_SQUARE_HD = 23_593;
const clock = new ManualClock();
let jobs: Awaited<ReturnType<typeof startTestExecutor>>;

beforeAll(async () => {
  jobs = await startTestExecutor({ clock });
});
afterAll(() => jobs.uninstall());

let seq = 0;
const newKey = () => `key-${Date.now().toString(36)}-${seq++}`;
const keyed = (idempotencyKey: string | undefined): Record<string, string> =>
  idempotencyKey === undefined ? {} : { "Idempotency-Key": idempotencyKey };

const run = (body: unknown, key: string, idempotencyKey?: string, query = "") =>
  call(RUN, `/run/${FLUX}${query}`, { params: pathOf(FLUX), body, key, headers: keyed(idempotencyKey) });
const queue = (body: unknown, key: string, idempotencyKey?: string, query = "") =>
  call(QUEUE, `/queue/${FLUX}${query}`, { params: pathOf(FLUX), body, key, headers: keyed(idempotencyKey) });
const generate = (body: unknown, key: string, idempotencyKey?: string) =>
  call(GENERATE, "/api/v1/generate", { body, key, headers: keyed(idempotencyKey) });
const integration = (segment: string, body: unknown, key: string, idempotencyKey?: string) =>
  call(INTEGRATION, `/integrations/${segment}`, { body, key, params: { path: [segment] }, headers: keyed(idempotencyKey) });

const reserves = async (userId: string) => (await ledgerOf(userId)).filter((t) => t.type === "generation_reserve");

async function keyRows(userId: string) {
  const db = await getDb();
  return db.select().from(idempotencyKeys).where(eq(idempotencyKeys.userId, userId));
}

/** Resolves once the user's first job exists (a condition, not a clock). */
async function firstJobOf(userId: string) {
  for (;;) {
    const [job] = await jobsOf(userId);
    if (job) return job;
    await new Promise((r) => setTimeout(r, 10));
  }
}

describe("success", () => {
  test("POST /run: a repeat with the same key and body answers the first result — same request id, one reserve, one provider call", async () => {
    const { user, key } = await fundedActor(100);
    const idem = newKey();
    const first = await run({ prompt: "a lighthouse", seed: 7 }, key, idem);
    expect(first.status).toBe(200);
    const id = first.body.request_id;
    const again = await run({ seed: 7, prompt: "a lighthouse" }, key, idem);
    expect(again.status).toBe(200);
    expect(again.body).toEqual(first.body);
    expect(await jobsOf(user.id)).toHaveLength(1);
    expect(await reserves(user.id)).toEqual([{ type: "generation_reserve", amount: -FLUX_SQUARE_HD, generationId: id }]);
    expect(await balanceOf(user.id)).toBe(1_000_000 - FLUX_SQUARE_HD);
    expect(await simulatorRequestsFor(id)).toHaveLength(1);
    expect(await keyRows(user.id)).toMatchObject([{ key: idem, generationId: id, fingerprint: expect.stringMatching(/^[0-9a-f]{64}$/) }]);
  });

  test("POST /run: without a key, the same body runs twice", async () => {
    const { user, key } = await fundedActor(100);
    const a = await run({ prompt: "twice" }, key);
    const b = await run({ prompt: "twice" }, key);
    expect(a.body.request_id).not.toBe(b.body.request_id);
    expect(await reserves(user.id)).toHaveLength(2);
    expect(await keyRows(user.id)).toEqual([]);
  });

  test("POST /run: 20 concurrent duplicates create exactly one job, one reserve and one provider call, and all answer it", async () => {
    const { user, key } = await fundedActor(100);
    const idem = newKey();
    const answers = await Promise.all(Array.from({ length: 20 }, () => run({ prompt: "stampede [latency:300]" }, key, idem)));
    expect(answers.map((a) => a.status)).toEqual(Array(20).fill(200));
    const ids = new Set(answers.map((a) => a.body.request_id));
    expect(ids.size).toBe(1);
    const [id] = [...ids];
    expect(await jobsOf(user.id)).toMatchObject([{ id, status: "completed" }]);
    expect(await reserves(user.id)).toEqual([{ type: "generation_reserve", amount: -FLUX_SQUARE_HD, generationId: id }]);
    expect(await balanceOf(user.id)).toBe(1_000_000 - FLUX_SQUARE_HD);
    expect(await simulatorRequestsFor(id!)).toHaveLength(1);
  });

  test("POST /run: 20 concurrent duplicates on a balance that covers one still collapse into it (none is 402)", async () => {
    const actor = await createActor();
    await grantCredits(await getDb(), {
      userId: actor.user.id,
      credits: FLUX_SQUARE_HD,
      type: "grant",
      idempotencyKey: `test:${actor.user.id}`,
    });
    const idem = newKey();
    const answers = await Promise.all(Array.from({ length: 20 }, () => run({ prompt: "one coin" }, actor.key, idem)));
    expect(answers.map((a) => a.status)).toEqual(Array(20).fill(200));
    expect(new Set(answers.map((a) => a.body.request_id)).size).toBe(1);
    expect(await jobsOf(actor.user.id)).toHaveLength(1);
    expect(await reserves(actor.user.id)).toHaveLength(1);
    expect(await balanceOf(actor.user.id)).toBe(0);
  });

  test("POST /run: a repeat while the first is still running waits for the same job and answers its result", async () => {
    const { user, key } = await fundedActor(100);
    const idem = newKey();
    const first = run({ prompt: "slow [latency:1500]" }, key, idem);
    const job = await firstJobOf(user.id);
    const repeat = await run({ prompt: "slow [latency:1500]" }, key, idem);
    expect(repeat.status).toBe(200);
    expect(repeat.body.request_id).toBe(job.id);
    expect(repeat.body).toEqual((await first).body);
    expect(await simulatorRequestsFor(job.id)).toHaveLength(1);
    expect(await reserves(user.id)).toHaveLength(1);
  });

  test("POST /run: a repeat of a run that failed answers the same failure (502 provider_error, same request id), refunded once", async () => {
    const { user, key } = await fundedActor(100);
    const idem = newKey();
    const first = await run({ prompt: "down [fail:provider]" }, key, idem);
    expect(first.status).toBe(502);
    const id = first.body.requestId;
    expect(first.body).toMatchObject({ success: false, error: "provider_error", requestId: id, request_id: id, status: "failed" });
    const again = await run({ prompt: "down [fail:provider]" }, key, idem);
    expect(again.status).toBe(502);
    expect(again.body).toEqual(first.body);
    expect(await jobsOf(user.id)).toHaveLength(1);
    expect((await ledgerOf(user.id)).map((t) => t.type)).toEqual(["generation_reserve", "generation_refund"]);
    expect(await balanceOf(user.id)).toBe(1_000_000);
  });

  test("POST /run: a model failure replays as the same 500 generation_failed", async () => {
    const { key } = await fundedActor(100);
    const idem = newKey();
    const first = await run({ prompt: "broken [fail:generation]" }, key, idem);
    expect(first.status).toBe(500);
    const again = await run({ prompt: "broken [fail:generation]" }, key, idem);
    expect(again.status).toBe(500);
    expect(again.body).toEqual(first.body);
    expect(again.body).toMatchObject({ error: "generation_failed", requestId: first.body.requestId });
  });

  test("POST /run: a repeat whose own sync wait runs out first answers 504 timeout with the same request id", async () => {
    await withEnv({ RUN_SYNC_TIMEOUT_MS: "400" }, async () => {
      const { user, key } = await fundedActor(100);
      const idem = newKey();
      const first = run({ prompt: "slower than the wait [latency:3000]" }, key, idem);
      const job = await firstJobOf(user.id);
      const repeat = await run({ prompt: "slower than the wait [latency:3000]" }, key, idem);
      expect(repeat.status).toBe(504);
      expect(repeat.body).toEqual({
        success: false,
        error: "timeout",
        message: expect.any(String),
        requestId: job.id,
        request_id: job.id,
        status: "in_progress",
      });
      expect((await first).body).toMatchObject({ error: "timeout", requestId: job.id });
      expect(await reserves(user.id)).toHaveLength(1);
    });
  });

  test("a key is scoped to its user: another user's same key and body makes their own job", async () => {
    const alice = await fundedActor(100);
    const bob = await fundedActor(100);
    const idem = newKey();
    const a = await run({ prompt: "shared key" }, alice.key, idem);
    const b = await run({ prompt: "shared key" }, bob.key, idem);
    expect(a.status).toBe(200);
    expect(b.status).toBe(200);
    expect(b.body.request_id).not.toBe(a.body.request_id);
    expect(await reserves(alice.user.id)).toHaveLength(1);
    expect(await reserves(bob.user.id)).toHaveLength(1);
  });

  test("a request refused with 402 keeps no key: the same key works after a top-up", async () => {
    const actor = await createActor();
    const idem = newKey();
    const refused = await run({ prompt: "on credit" }, actor.key, idem);
    expect(refused.status).toBe(402);
    expect(refused.body.error).toBe("insufficient_balance");
    expect(await keyRows(actor.user.id)).toEqual([]);
    expect(await jobsOf(actor.user.id)).toEqual([]);
    await grantCredits(await getDb(), {
      userId: actor.user.id,
      credits: 1_000_000,
      type: "grant",
      idempotencyKey: `test:${actor.user.id}`,
    });
    const paid = await run({ prompt: "on credit" }, actor.key, idem);
    expect(paid.status).toBe(200);
    expect(await keyRows(actor.user.id)).toMatchObject([{ key: idem, generationId: paid.body.request_id }]);
  });

  test("a request refused with 400 keeps no key", async () => {
    const { user, key } = await fundedActor(100);
    const idem = newKey();
    expect((await run({ prompt: "ok", num_images: 9 }, key, idem)).status).toBe(400);
    expect(await keyRows(user.id)).toEqual([]);
    expect((await run({ prompt: "ok", num_images: 2, image_size: "square" }, key, idem)).status).toBe(200);
  });

  test("a key older than 24 h is forgotten: the repeat makes a new job and takes the key", async () => {
    const { user, key } = await fundedActor(100);
    const idem = newKey();
    const first = await run({ prompt: "yesterday" }, key, idem);
    const db = await getDb();
    await db
      .update(idempotencyKeys)
      .set({ createdAt: sql`now() - interval '24 hours 1 second'` })
      .where(and(eq(idempotencyKeys.userId, user.id), eq(idempotencyKeys.key, idem)));
    const again = await run({ prompt: "yesterday" }, key, idem);
    expect(again.status).toBe(200);
    expect(again.body.request_id).not.toBe(first.body.request_id);
    expect(await reserves(user.id)).toHaveLength(2);
    expect(await keyRows(user.id)).toMatchObject([{ key: idem, generationId: again.body.request_id }]);
    // Within the window again: the new job answers.
    expect((await run({ prompt: "yesterday" }, key, idem)).body.request_id).toBe(again.body.request_id);
  });

  test("POST /queue: a repeat answers the same requestId and reserves once; the job runs once", async () => {
    const { user, key } = await fundedActor(100);
    const idem = newKey();
    const first = await queue({ prompt: "queued once" }, key, idem);
    expect(first.status).toBe(200);
    const id = first.body.requestId;
    const again = await queue({ prompt: "queued once" }, key, idem);
    expect(again.status).toBe(200);
    expect(again.body).toEqual(first.body);
    await jobs.drain();
    const after = await queue({ prompt: "queued once" }, key, idem);
    expect(after.body).toMatchObject({ requestId: id, request_id: id, status: "completed" });
    expect(await jobsOf(user.id)).toHaveLength(1);
    expect(await reserves(user.id)).toEqual([{ type: "generation_reserve", amount: -FLUX_SQUARE_HD, generationId: id }]);
    expect(await simulatorRequestsFor(id)).toHaveLength(1);
  });

  test("POST /api/v1/generate: sync and queued repeats answer the first job", async () => {
    const { user, key } = await fundedActor(100);
    const syncKey = newKey();
    const sync = await generate({ model: FLUX, input: { prompt: "skill sync" }, sync: true }, key, syncKey);
    expect(sync.status).toBe(200);
    const syncAgain = await generate({ input: { prompt: "skill sync" }, sync: true, model: FLUX }, key, syncKey);
    expect(syncAgain.status).toBe(200);
    expect(syncAgain.body).toEqual(sync.body);

    const queuedKey = newKey();
    const queued = await generate({ model: FLUX, input: { prompt: "skill queued" } }, key, queuedKey);
    expect(queued.status).toBe(202);
    // `sync: false` is the default: the same request written out.
    const queuedAgain = await generate({ model: FLUX, input: { prompt: "skill queued" }, sync: false }, key, queuedKey);
    expect(queuedAgain.status).toBe(202);
    expect(queuedAgain.body).toEqual(queued.body);
    expect((await reserves(user.id)).map((r) => r.generationId)).toEqual([sync.body.id, queued.body.id]);
  });

  test("replays are free: 20 repeats at a tier of 3 per minute (and /queue at 3 per hour) all answer the first job; new requests still count", async () => {
    await withEnv({ TIER_RPM: "3,3,3,3", RATE_LIMIT_USER_GENERATIONS_PER_HOUR: "3" }, async () => {
      const { user, key } = await fundedActor(100);
      const skillKey = newKey();
      const first = await generate({ model: FLUX, input: { prompt: "replayed skill" } }, key, skillKey);
      expect(first.status).toBe(202);
      for (let i = 0; i < 20; i++) {
        const again = await generate({ model: FLUX, input: { prompt: "replayed skill" } }, key, skillKey);
        expect(again.status).toBe(202);
        expect(again.body).toEqual(first.body);
      }
      // The same key with another body is refused (422) without spending the limit either.
      expect((await generate({ model: FLUX, input: { prompt: "another" } }, key, skillKey)).status).toBe(422);
      // Two new requests fit the 3 per minute left after the first; the third new one does not.
      expect((await generate({ model: FLUX, input: { prompt: "new 1" } }, key, newKey())).status).toBe(202);
      expect((await generate({ model: FLUX, input: { prompt: "new 2" } }, key, newKey())).status).toBe(202);
      const over = await generate({ model: FLUX, input: { prompt: "new 3" } }, key, newKey());
      expect(over.status).toBe(429);
      expect(over.body.code).toBe("RATE_LIMITED");

      const queueKey = newKey();
      const queued = await queue({ prompt: "replayed queue" }, key, queueKey);
      expect(queued.status).toBe(200);
      for (let i = 0; i < 20; i++) expect((await queue({ prompt: "replayed queue" }, key, queueKey)).body).toEqual(queued.body);
      expect((await reserves(user.id)).length).toBe(4);
    });
  });

  test("POST /api/v1/generate: a sync repeat of a failed generation answers the same failure", async () => {
    const { key } = await fundedActor(100);
    const idem = newKey();
    const first = await generate({ model: FLUX, input: { prompt: "no [fail:generation]" }, sync: true }, key, idem);
    expect(first.status).toBe(500);
    const again = await generate({ model: FLUX, input: { prompt: "no [fail:generation]" }, sync: true }, key, idem);
    expect(again.status).toBe(500);
    expect(again.body).toEqual(first.body);
    expect(again.body).toMatchObject({ code: "PROVIDER_ERROR", details: { reason: "generation_failed", requestId: expect.any(String) } });
  });

  test("POST /integrations/{slug}: a repeat reuses the first cover's generation — one reserve, the same cover", async () => {
    const { user, key } = await fundedActor(100);
    const idem = newKey();
    const body = { artist: "Artist", release_name: "Night Drive", genre: "electronic", text: "neon lights over the highway" };
    const first = await integration("covers", body, key, idem);
    expect(first.status).toBe(200);
    const again = await integration("covers", body, key, idem);
    expect(again.status).toBe(200);
    expect(again.body).toEqual(first.body);
    const [job] = await jobsOf(user.id);
    expect(await jobsOf(user.id)).toHaveLength(1);
    expect(job).toMatchObject({ operation: "integration", status: "completed" });
    expect(await reserves(user.id)).toHaveLength(1);
    expect(await simulatorRequestsFor(job!.id)).toHaveLength(1);
    // The edit action is another request: the same key there is 422.
    const edit = await integration("covers-edit", { artist: "Artist", release_name: "Night Drive", genre: "electronic" }, key, idem);
    expect(edit.status).toBe(422);
    expect(edit.body.error).toBe("idempotency_key_reused");
  });
});

describe("validation", () => {
  const reused = {
    success: false,
    error: "idempotency_key_reused",
    message: expect.stringMatching(/Idempotency-Key was already used for a different request/),
  };

  test.each([
    ["another body", { prompt: "something else" }, ""],
    ["another option (passthrough)", { prompt: "the first" }, "?passthrough=1"],
  ])("the same key with %s is 422 idempotency_key_reused; nothing runs", async (_, body, query) => {
    const { user, key } = await fundedActor(100);
    const idem = newKey();
    expect((await run({ prompt: "the first" }, key, idem)).status).toBe(200);
    const res = await run(body, key, idem, query);
    expect(res.status).toBe(422);
    expect(res.body).toEqual(reused);
    expect(await jobsOf(user.id)).toHaveLength(1);
    expect(await reserves(user.id)).toHaveLength(1);
  });

  test("the same key on another route (/queue after /run) or with another webhook is 422", async () => {
    const { user, key } = await fundedActor(100);
    const idem = newKey();
    expect((await run({ prompt: "routes" }, key, idem)).status).toBe(200);
    expect(await queue({ prompt: "routes" }, key, idem)).toMatchObject({ status: 422, body: reused });
    const queueKey = newKey();
    expect((await queue({ prompt: "hooks" }, key, queueKey)).status).toBe(200);
    // A loopback receiver passes the outbound rules only where private addresses are allowed.
    const hooked = await withEnv({ ALLOW_PRIVATE_URLS: "true" }, () =>
      queue({ prompt: "hooks" }, key, queueKey, "?webhook=http://127.0.0.1:9/hook"),
    );
    expect(hooked).toMatchObject({ status: 422, body: reused });
    expect(await jobsOf(user.id)).toHaveLength(2);
  });

  test("the skill surface answers a reused key in its own envelope: 422 INVALID_PARAMS", async () => {
    const { key } = await fundedActor(100);
    const idem = newKey();
    expect((await generate({ model: FLUX, input: { prompt: "one" } }, key, idem)).status).toBe(202);
    const res = await generate({ model: FLUX, input: { prompt: "two" } }, key, idem);
    expect(res.status).toBe(422);
    expect(res.body).toEqual({
      error: expect.stringMatching(/Idempotency-Key/),
      code: "INVALID_PARAMS",
      details: { reason: "idempotency_key_reused" },
    });
  });

  test.each([
    ["empty", ""],
    ["longer than 255 characters", "k".repeat(256)],
  ])("an Idempotency-Key that is %s is 400 invalid_params naming the header, before any charge", async (_, value) => {
    const { user, key } = await fundedActor(100);
    const res = await run({ prompt: "bad key" }, key, value);
    expect(res.status).toBe(400);
    expect(res.body).toEqual({
      success: false,
      error: "invalid_params",
      message: expect.stringMatching(/^Idempotency-Key: /),
      issues: [{ path: ["Idempotency-Key"], message: expect.any(String) }],
    });
    expect(await jobsOf(user.id)).toEqual([]);
    const skill = await generate({ model: FLUX, input: { prompt: "bad key" } }, key, value);
    expect(skill.status).toBe(400);
    expect(skill.body).toMatchObject({
      code: "INVALID_PARAMS",
      details: { reason: "invalid_params", issues: [{ path: ["Idempotency-Key"] }] },
    });
  });

  test("a key of exactly 255 characters is accepted", async () => {
    const { key } = await fundedActor(100);
    const idem = `${newKey()}-`.padEnd(255, "x");
    const first = await run({ prompt: "long key" }, key, idem);
    expect(first.status).toBe(200);
    expect((await run({ prompt: "long key" }, key, idem)).body.request_id).toBe(first.body.request_id);
  });

  test("a sandbox key and a live key of the same user do not replay into each other", async () => {
    const live = await fundedActor(100);
    const sandbox = await createApiKey(live.user, { mode: "test" });
    const idem = newKey();
    expect((await run({ prompt: "modes" }, sandbox.key, idem)).status).toBe(200);
    expect(await run({ prompt: "modes" }, live.key, idem)).toMatchObject({ status: 422, body: reused });
    expect(await reserves(live.user.id)).toEqual([]);
  });

  test("the header and the 422 are in /openapi.json on every generation-creating operation", async () => {
    const doc = (await call(OPENAPI, "/openapi.json")).body;
    for (const [path, method] of [
      ["/run/{modelId}", "post"],
      ["/queue/{modelId}", "post"],
      ["/api/v1/generate", "post"],
      ["/integrations/{slug}", "post"],
      ["/integrations/{slug}-edit", "post"],
    ] as const) {
      const op = doc.paths[path][method];
      expect(op.parameters.find((p: { name: string }) => p.name === "Idempotency-Key").required).not.toBe(true);
      expect(op.parameters).toContainEqual(
        expect.objectContaining({
          in: "header",
          name: "Idempotency-Key",
          schema: expect.objectContaining({ minLength: 1, maxLength: 255 }),
        }),
      );
      expect(op.responses["422"]).toMatchObject({ description: "idempotency_key_reused" });
    }
  });
});

describe("database", () => {
  test("a user deleted takes their keys along (the key row cascades with its user and its job)", async () => {
    const { user, key } = await fundedActor(100);
    const res = await run({ prompt: "gone" }, key, newKey());
    expect(await jobRow(res.body.request_id)).toMatchObject({ userId: user.id });
    const db = await getDb();
    await db.execute(sql`delete from users where id = ${user.id}`);
    expect(await keyRows(user.id)).toEqual([]);
  });
});
