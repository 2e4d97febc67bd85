import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { getDb } from "@/db/client";
import { inboundEvents } from "@/db/schema";
import { ManualClock } from "@/lib/jobs/clock";
import { startTestExecutor } from "@/lib/jobs/testing";
import { standardWebhookSigner } from "@/lib/provider/webhook-verify";
import { localProviderSecret } from "@/simulators/local-provider/secret";
import { activityOf, balanceOf, fundedActor, jobRow, ledgerOf, pathOf } from "@/test/generation";
import { call } from "@/test/http";
import { image } from "@/test/media";
import { POST as QUEUE } from "../../queue/[...path]/route";
import { POST } from "./route";

const FLUX = "fal-ai/flux/dev";
const clock = new ManualClock();
let jobs: Awaited<ReturnType<typeof startTestExecutor>>;
beforeAll(async () => {
  jobs = await startTestExecutor({ clock });
});
afterAll(() => jobs.uninstall());

/** A job submitted to the simulator that will not finish by itself for a minute. */
async function pendingJob() {
  const actor = await fundedActor(100);
  const res = await call(QUEUE, `/queue/${FLUX}`, {
    params: pathOf(FLUX),
    body: { prompt: "awaiting a webhook [latency:60000]" },
    key: actor.key,
  });
  await jobs.drain();
  const row = await jobRow(res.body.requestId);
  return { ...actor, id: row.id, providerRequestId: row.providerRequestId! };
}

/** A webhook signed the way the local provider signs its own (Standard Webhooks, its secret). */
function signed(body: Record<string, unknown>, secret = localProviderSecret()) {
  const text = JSON.stringify(body);
  const msgId = `msg_${Math.random().toString(36).slice(2)}`;
  const at = new Date();
  return {
    body: text,
    headers: {
      "content-type": "application/json",
      "webhook-id": msgId,
      "webhook-timestamp": String(Math.floor(at.getTime() / 1000)),
      "webhook-signature": standardWebhookSigner(secret).sign(msgId, at, text),
    },
  };
}

const deliver = (w: { body: string; headers: Record<string, string> }) =>
  call(POST, "/webhooks/provider", { body: w.body, headers: w.headers });

async function okPayload(providerRequestId: string) {
  const png = await image("png", 16);
  return {
    request_id: providerRequestId,
    gateway_request_id: providerRequestId,
    status: "OK",
    payload: {
      images: [{ url: `data:image/png;base64,${png.toString("base64")}`, width: 1024, height: 1024, content_type: "image/png" }],
      seed: 1,
    },
  };
}

describe("success", () => {
  test("a completion webhook re-hosts the result, ends the job (charged once) and cancels the waiting run", async () => {
    const { user, id, providerRequestId } = await pendingJob();
    await jobs.advance("1s");
    const res = await deliver(signed(await okPayload(providerRequestId)));
    expect(res.status).toBe(200);
    expect(res.body).toEqual({
      ok: true,
      status: "completed",
      deduped: false,
      unmapped: false,
      assets: { found: 1, uploaded: 1, failed: 0 },
    });
    const row = await jobRow(id);
    expect(row).toMatchObject({ status: "completed", costSettledCredits: 23_593 });
    expect((row.output as { images: { url: string }[] }).images[0]!.url).toContain("/files/r/");
    await jobs.drain();
    expect(await ledgerOf(user.id)).toEqual([{ type: "generation_reserve", amount: -23_593, generationId: id }]);
    // The webhook's event cancelled the run, no further status check: its one step is the submit
    // (with the look at the status one second in), then its wait.
    const [run] = await jobs.runsForEvent(`generation:${id}`);
    expect(run).toMatchObject({ status: "cancelled" });
    expect(run!.stack).toHaveLength(1); // submit
  });

  test("5 duplicate deliveries make one completion: the rest are deduped with no side effects", async () => {
    const { user, id, providerRequestId } = await pendingJob();
    const webhook = signed(await okPayload(providerRequestId));
    const answers = await Promise.all(Array.from({ length: 5 }, () => deliver(webhook)));
    expect(answers.map((a) => a.status)).toEqual([200, 200, 200, 200, 200]);
    expect(answers.filter((a) => a.body.deduped === false)).toHaveLength(1);
    expect(answers.filter((a) => a.body.deduped === true)).toHaveLength(4);
    await jobs.drain();
    expect(await activityOf(id)).toHaveLength(1);
    expect(await ledgerOf(user.id)).toEqual([{ type: "generation_reserve", amount: -23_593, generationId: id }]);
    expect(await balanceOf(user.id)).toBe(1_000_000 - 23_593);
  });

  test("a failure webhook ends the job failed and refunds it once", async () => {
    const { user, id, providerRequestId } = await pendingJob();
    const res = await deliver(
      signed({
        request_id: providerRequestId,
        status: "ERROR",
        error: "Invalid status code: 422",
        payload: { detail: [{ loc: ["body", "prompt"], msg: "nope", type: "value_error" }] },
      }),
    );
    expect(res.body).toEqual({ ok: true, status: "failed", deduped: false, unmapped: false, assets: { found: 0, uploaded: 0, failed: 0 } });
    expect(await jobRow(id)).toMatchObject({ status: "failed", errorCode: "generation_failed" });
    expect((await ledgerOf(user.id)).map((t) => t.type)).toEqual(["generation_reserve", "generation_refund"]);
  });

  test("a request no job knows is answered unmapped", async () => {
    const res = await deliver(signed(await okPayload("00000000-0000-4000-8000-00000000beef")));
    expect(res.status).toBe(200);
    expect(res.body).toEqual({
      ok: true,
      status: "completed",
      deduped: false,
      unmapped: true,
      assets: { found: 0, uploaded: 0, failed: 0 },
    });
  });
});

describe("auth", () => {
  test("a bad signature is 401 invalid_signature and nothing changes", async () => {
    const { user, id, providerRequestId } = await pendingJob();
    const forged = signed(await okPayload(providerRequestId), "whsec_" + Buffer.from("x".repeat(32)).toString("base64"));
    const res = await deliver(forged);
    expect(res.status).toBe(401);
    expect(res.body).toMatchObject({ success: false, error: "invalid_signature" });
    expect(await jobRow(id)).toMatchObject({ status: "queued", output: null });
    const db = await getDb();
    expect(
      await db
        .select()
        .from(inboundEvents)
        .where(eq(inboundEvents.externalId, `local:${providerRequestId}`)),
    ).toEqual([]);
    expect(await ledgerOf(user.id)).toHaveLength(1);
  });

  test("no signature headers at all is 401", async () => {
    const res = await call(POST, "/webhooks/provider", { body: { request_id: "x", status: "OK" } });
    expect(res.status).toBe(401);
    expect(res.body).toMatchObject({ error: "invalid_signature" });
  });
});
