import { sql } from "drizzle-orm";
import { afterAll, beforeAll, beforeEach, describe, expect, test } from "vitest";
import { getDb } from "@/db/client";
import { ManualClock } from "@/lib/jobs/clock";
import { startTestExecutor } from "@/lib/jobs/testing";
import { breakerFor } from "@/lib/provider";
import { localProvider } from "@/lib/provider/registry";
import { resetBreakers } from "@/lib/provider/circuit-breaker";
import { balanceOf, fundedActor, jobRow, jobsOf, ledgerOf, pathOf, simulatorRequestsFor } from "@/test/generation";
import { withEnv } from "@/test/env";
import { call } from "@/test/http";
import { HANG_MS } from "@/test/wait";
import { POST as RUN } from "@/app/(gateway)/run/[...path]/route";
import { POST as GENERATE } from "@/app/api/v1/generate/route";
import { PUT as QUEUE_PUT } from "@/app/(gateway)/queue/[...path]/route";

/**
 * Sync runs while the provider takes time or fails: every way out after the reserve is an answer
 * the client can act on, and the money is settled before that answer leaves.
 */
const FLUX = "fal-ai/flux/dev";
const SMALL = { image_size: { width: 256, height: 256 } };
const FUNDS = 1_000_000;
const clock = new ManualClock();
let jobs: Awaited<ReturnType<typeof startTestExecutor>>;

beforeAll(async () => {
  jobs = await startTestExecutor({ clock });
});
afterAll(() => jobs.uninstall());
// Each test starts with the provider's circuit closed (failures of one test would open it for the next).
beforeEach(() => resetBreakers());

const run = (prompt: string, key: string) => call(RUN, `/run/${FLUX}`, { params: pathOf(FLUX), body: { prompt, ...SMALL }, key });
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

async function ledgerTypes(userId: string) {
  return (await ledgerOf(userId)).map((t) => t.type);
}

describe("success", () => {
  test("a run the provider takes time over answers 200 with the result, charged once", async () => {
    const { user, key } = await fundedActor(100);
    const res = await run("a lighthouse [latency:700]", key);
    expect(res.status).toBe(200);
    const id = res.body.request_id;
    expect(res.body.images[0].url).toContain("/files/r/");
    expect(await jobRow(id)).toMatchObject({ status: "completed", providerRequestId: expect.any(String) });
    expect(await ledgerTypes(user.id)).toEqual(["generation_reserve"]);
    expect(await simulatorRequestsFor(id)).toHaveLength(1);
  });

  test("a provider that fails once on submit, then accepts: 200 with the result, charged once, run once", async () => {
    const { user, key } = await fundedActor(100);
    const res = await run("flaky submit [fail:provider:1] [latency:300]", key);
    expect(res.status).toBe(200);
    expect(await ledgerTypes(user.id)).toEqual(["generation_reserve"]);
    expect(await simulatorRequestsFor(res.body.request_id)).toHaveLength(1);
  });

  test("a result that fails once to be fetched is fetched again: 200, charged once", async () => {
    const { user, key } = await fundedActor(100);
    const res = await run("flaky result [fail:result:1] [latency:300]", key);
    expect(res.status).toBe(200);
    expect(await jobRow(res.body.request_id)).toMatchObject({ status: "completed" });
    expect(await ledgerTypes(user.id)).toEqual(["generation_reserve"]);
  });

  test("skill sync: true while the provider takes time answers 200 with the GenerationResult", async () => {
    const { user, key } = await fundedActor(100);
    const res = await call(GENERATE, "/api/v1/generate", {
      body: { model: FLUX, input: { prompt: "slow skill [latency:500]", ...SMALL }, sync: true },
      key,
    });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({
      status: "completed",
      model: FLUX,
      output: { images: [{ url: expect.stringContaining("/files/r/") }] },
    });
    expect(await ledgerTypes(user.id)).toEqual(["generation_reserve"]);
  });
});

describe("waiting without polling", () => {
  /** Counts the simulator's result asks for the duration of `during` (its own method, wrapped). */
  async function countingResultAsks<T>(during: () => Promise<T>) {
    const provider = localProvider();
    const original = provider.result;
    const asked: string[] = [];
    provider.result = function (ref, ...rest) {
      asked.push(ref.providerRequestId);
      return original.call(this, ref, ...rest);
    };
    try {
      return { value: await during(), asked };
    } finally {
      provider.result = original;
    }
  }

  test("a sync run of a 2 s job asks the provider for its result a bounded number of times (its hint), not once per pause", async () => {
    const { user, key } = await fundedActor(100);
    const { value: res, asked } = await countingResultAsks(() => run("a patient lighthouse [latency:2000]", key));
    expect(res.status).toBe(200);
    expect(await jobRow(res.body.request_id)).toMatchObject({ status: "completed" });
    // One ask at submit (not ready, hint: when it completes), one when the hint is up. A pause
    // growing to 1 s asked 8 times for 2 s; a 10 s job ~16 times, each a database read.
    expect(asked.length).toBeGreaterThanOrEqual(2);
    expect(asked.length).toBeLessThanOrEqual(3);
    expect(await ledgerTypes(user.id)).toEqual(["generation_reserve"]);
  });

  test("a sync run whose job is cancelled meanwhile is woken by the change notice and answers as the job ended, refunded", async () => {
    const { user, key } = await fundedActor(100);
    // 60 s in the simulator, the first fifth in its queue (cancellable): only the notice can end
    // this wait before the test's own time limit.
    let id: string | undefined;
    const { value: res, asked } = await countingResultAsks(async () => {
      const pending = run("a cancelled lighthouse [latency:60000]", key);
      for (let waited = 0; waited < HANG_MS && !id; waited += 20) {
        const [job] = await jobsOf(user.id);
        if (job?.providerRequestId) id = job.id;
        else await sleep(20);
      }
      expect(id).toBeDefined();
      const cancelled = await call(QUEUE_PUT, `/queue/${FLUX}/requests/${id}/cancel`, {
        method: "PUT",
        params: pathOf(FLUX, "requests", id!, "cancel"),
        key,
      });
      expect(cancelled.body).toEqual({ ok: true, status: "cancelled" });
      return pending;
    });
    // Answered as the job ended (the sync surface's failure shape, with the request id).
    expect(res.body).toMatchObject({ success: false, requestId: id });
    expect(await jobRow(id!)).toMatchObject({ status: "cancelled" });
    expect(asked).toHaveLength(1);
    expect(await balanceOf(user.id)).toBe(FUNDS);
  });
});

describe("failures", () => {
  test("a provider that keeps failing is 502 provider_error with the request id, refunded before the answer", async () => {
    const { user, key } = await fundedActor(100);
    const res = await run("down [fail:provider]", key);
    expect(res.status).toBe(502);
    const id = res.body.requestId;
    expect(res.body).toMatchObject({ success: false, error: "provider_error", requestId: id, request_id: id, status: "failed" });
    // The refund is already there when the answer arrives.
    expect(await ledgerTypes(user.id)).toEqual(["generation_reserve", "generation_refund"]);
    expect(await balanceOf(user.id)).toBe(FUNDS);
    expect(await jobRow(id)).toMatchObject({ status: "failed", errorCode: "provider_error" });
  });

  test("a provider that keeps answering 429 is 502 provider_error carrying its Retry-After, refunded", async () => {
    const { user, key } = await fundedActor(100);
    const res = await run("busy [fail:rate_limit]", key);
    expect(res.status).toBe(502);
    expect(res.headers.get("retry-after")).toBe("1");
    expect(res.body).toMatchObject({ error: "provider_error", requestId: expect.any(String) });
    expect(await balanceOf(user.id)).toBe(FUNDS);
  });

  test("a result that cannot be fetched is 502 provider_error, refunded", async () => {
    const { user, key } = await fundedActor(100);
    const res = await run("lost result [fail:result]", key);
    expect(res.status).toBe(502);
    expect(res.body).toMatchObject({ error: "provider_error", requestId: expect.any(String) });
    expect(await ledgerTypes(user.id)).toEqual(["generation_reserve", "generation_refund"]);
  });

  test("a model failure after some time is 500 generation_failed with the request id, refunded", async () => {
    const { user, key } = await fundedActor(100);
    const res = await run("refused [latency:300] [fail:generation]", key);
    expect(res.status).toBe(500);
    expect(res.body).toMatchObject({ error: "generation_failed", requestId: expect.any(String), status: "failed" });
    expect(await balanceOf(user.id)).toBe(FUNDS);
  });

  test("the provider's circuit opening while the run waits is 503 provider_error with Retry-After, refunded", async () => {
    const { user, key } = await fundedActor(100);
    // The provider never finishes this job: only the circuit can end the wait (the sync timeout is
    // minutes), however long the machine takes to get there.
    let answered = false;
    const pending = run("circuit [fail:timeout]", key).finally(() => (answered = true));
    // Once the job is submitted, the provider fails for everyone until the run answers. The circuit
    // is opened again whenever it is found closed: a call in flight as it opens (the submit, a "not
    // ready") ends as a success, which closes it.
    const breaker = breakerFor("local");
    while (!answered) {
      const [job] = await jobsOf(user.id);
      const submitted = job && (await simulatorRequestsFor(job.id)).length > 0;
      if (submitted && breaker.state === "closed") for (let i = 0; i < 10; i++) breaker.recordFailure();
      await sleep(20);
    }
    const res = await pending;
    expect(res.status).toBe(503);
    expect(Number(res.headers.get("retry-after"))).toBeGreaterThanOrEqual(1);
    expect(res.body).toMatchObject({ error: "provider_error", requestId: expect.any(String) });
    expect(await ledgerTypes(user.id)).toEqual(["generation_reserve", "generation_refund"]);
  });

  test("skill sync: true on a failing provider is 502 PROVIDER_ERROR with the request id in details, refunded", async () => {
    const { user, key } = await fundedActor(100);
    const res = await call(GENERATE, "/api/v1/generate", {
      body: { model: FLUX, input: { prompt: "down [fail:provider]", ...SMALL }, sync: true },
      key,
    });
    expect(res.status).toBe(502);
    expect(res.body).toMatchObject({ code: "PROVIDER_ERROR", details: { reason: "provider_error", requestId: expect.any(String) } });
    expect(await balanceOf(user.id)).toBe(FUNDS);
  });
});

describe("hand-over", () => {
  test("past the sync wait: 504 timeout with the request id; the queue resumes the same provider request and charges once", async () => {
    await withEnv({ RUN_SYNC_TIMEOUT_MS: "200" }, async () => {
      const { user, key } = await fundedActor(100);
      const res = await run("slow [latency:700]", key);
      expect(res.status).toBe(504);
      const id = res.body.requestId;
      expect(res.body).toMatchObject({ success: false, error: "timeout", requestId: id, request_id: id, status: "in_progress" });
      // The provider's id is recorded before the answer, so nothing is submitted twice.
      expect((await jobRow(id)).providerRequestId).toEqual(expect.any(String));
      await sleep(700);
      await jobs.runUntilIdle({ withinMs: 60_000 });
      expect(await jobRow(id)).toMatchObject({ status: "completed" });
      expect(await simulatorRequestsFor(id)).toHaveLength(1);
      expect(await ledgerTypes(user.id)).toEqual(["generation_reserve"]);
    });
  });

  test.each([
    ["a quick run (its progress left to the ending)", "db hiccup"],
    ["a slow run (its progress recorded as it happened)", "db hiccup [latency:400]"],
  ])(
    "an unexpected failure after the reserve (the database refuses the ending) of %s is answered like the timeout, with the request id; the queue resumes the same provider request",
    async (_, prompt) => {
      const { user, key } = await fundedActor(100);
      const db = await getDb();
      // A real failure in the database, for this job only: its ending is refused once.
      await db.execute(sql`create or replace function refuse_hiccup() returns trigger language plpgsql as $$
      begin
        if new.status = 'completed' and new.input ->> 'prompt' like '%db hiccup%' then raise exception 'database hiccup'; end if;
        return new;
      end $$`);
      await db.execute(
        sql`create trigger refuse_hiccup before update on generation_requests for each row execute function refuse_hiccup()`,
      );
      // Warm caches first, so the quick case is quick (its progress left to the ending's statement).
      expect((await run("warm up", key)).status).toBe(200);
      let id: string;
      try {
        const res = await run(prompt, key);
        expect(res.status).toBe(504);
        id = res.body.requestId;
        expect(res.body).toMatchObject({ error: "timeout", requestId: id, request_id: id, status: "in_progress" });
        expect(await jobRow(id)).toMatchObject({ status: "queued", providerRequestId: expect.any(String) });
        expect(await ledgerTypes(user.id)).toEqual(["generation_reserve", "generation_reserve"]);
      } finally {
        await db.execute(sql`drop trigger refuse_hiccup on generation_requests`);
      }
      await jobs.runUntilIdle({ withinMs: 60_000 });
      expect(await jobRow(id)).toMatchObject({ status: "completed" });
      expect(await simulatorRequestsFor(id)).toHaveLength(1);
      expect(await ledgerTypes(user.id)).toEqual(["generation_reserve", "generation_reserve"]);
    },
  );
});
