import { asc, eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { GET, POST, PUT } from "@/app/(gateway)/queue/[...path]/route";
import { POST as RUN } from "@/app/(gateway)/run/[...path]/route";
import { POST as PROVIDER_WEBHOOK } from "@/app/(gateway)/webhooks/provider/route";
import { getDb } from "@/db/client";
import { generationEvents } from "@/db/schema";
import { resetEnv } from "@/lib/core/env";
import { ManualClock } from "@/lib/jobs/clock";
import { startTestExecutor } from "@/lib/jobs/testing";
import { localProviderSecret } from "@/simulators/local-provider/secret";
import { standardWebhookSigner } from "@/lib/provider/webhook-verify";
import { createActor } from "@/test/factories";
import { fundedActor, jobRow, pathOf } from "@/test/generation";
import { call } from "@/test/http";
import { image } from "@/test/media";
import { openStream, readEvents, type SseEvent } from "@/test/sse";

/**
 * The gateway's event streams (`status/stream`, `progress/stream`) as a stock EventSource uses
 * them, through the route and the real engine: a `retry:` hint, an id on every event (the job's
 * event-log position), Last-Event-ID resuming without replay, 204 once the request is final,
 * events carrying the status they had when they happened, exactly one final event.
 */
const FLUX = "fal-ai/flux/dev";
const FINAL = ["completed", "failed", "cancelled"];
const clock = new ManualClock();
let jobs: Awaited<ReturnType<typeof startTestExecutor>>;

beforeAll(async () => {
  jobs = await startTestExecutor({ clock });
});
afterAll(() => jobs.uninstall());

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
const submit = async (prompt: string, key: string, extra: Record<string, unknown> = {}) =>
  (await call(POST, `/queue/${FLUX}`, { params: pathOf(FLUX), body: { prompt, ...extra }, key })).body.requestId as string;
type Tail = "status/stream" | "progress/stream";
const stream = (id: string, tail: Tail, key: string, options: { query?: string; lastEventId?: string } = {}) =>
  openStream(GET, `/queue/${FLUX}/requests/${id}/${tail}${options.query ?? ""}`, {
    key,
    params: pathOf(FLUX, "requests", id, ...tail.split("/")),
    lastEventId: options.lastEventId,
  });

/** Runs a `[latency:300]` job to its end (the runner reports its steps as logs meanwhile). */
async function runToEnd() {
  await jobs.drain();
  await sleep(350);
  await jobs.advance("1s");
}

/** The job's event log as stored: seq, kind, data. */
async function logOf(id: string) {
  const db = await getDb();
  return db
    .select({ seq: generationEvents.seq, kind: generationEvents.kind, data: generationEvents.data })
    .from(generationEvents)
    .where(eq(generationEvents.generationId, id))
    .orderBy(asc(generationEvents.seq));
}

/** A job with several log lines, its `status/stream?logs=1` read from before it ran to its end. */
async function loggedJob(key: string) {
  const id = await submit("a lighthouse, logged [latency:300]", key, { num_inference_steps: 6 });
  const res = await stream(id, "status/stream", key, { query: "?logs=1" });
  expect(res.status).toBe(200);
  const reading = readEvents(res);
  await runToEnd();
  return { id, first: await reading };
}

/** A completion webhook for the job, signed as the local provider signs its own. */
async function deliverCompletion(providerRequestId: string) {
  const png = await image("png", 16);
  const body = JSON.stringify({
    request_id: providerRequestId,
    gateway_request_id: providerRequestId,
    status: "OK",
    payload: {
      images: [{ url: `data:image/png;base64,${png.toString("base64")}`, width: 1024, height: 1024, content_type: "image/png" }],
      seed: 1,
    },
  });
  const msgId = `msg_${providerRequestId}`;
  const at = new Date();
  const headers = {
    "content-type": "application/json",
    "webhook-id": msgId,
    "webhook-timestamp": String(Math.floor(at.getTime() / 1000)),
    "webhook-signature": standardWebhookSigner(localProviderSecret()).sign(msgId, at, body),
  };
  const res = await call(PROVIDER_WEBHOOK, "/webhooks/provider", { body, headers });
  expect(res.body).toMatchObject({ ok: true, status: "completed" });
}

const ids = (events: SseEvent[]) => events.map((e) => Number(e.id));
const ascending = (values: number[]) => values.every((v, i) => i === 0 || v > values[i - 1]!);

describe("success", () => {
  test("status/stream?logs=1 on a job with many log lines: a retry hint, every event's id is its log seq, each carries the status it had then, exactly one final event, then the stream closes", async () => {
    const { key } = await fundedActor(100);
    const { id, first } = await loggedJob(key);
    expect(first.text.startsWith("retry: 1000\n\n")).toBe(true);
    expect(first.retry).toBe(1000);

    const rows = (await logOf(id)).filter((r) => r.kind !== "progress");
    expect(rows.filter((r) => r.kind === "log").length).toBeGreaterThanOrEqual(7);
    expect(first.events.map((e) => e.id)).toEqual(rows.map((r) => String(r.seq)));
    expect(ascending(ids(first.events))).toBe(true);
    // The status as of each event, and the logs so far: what the log said when it happened.
    let status = "queued";
    let logs = 0;
    const asOf = rows.map((r) => {
      if (r.kind === "status") status = r.data.status as string;
      else logs++;
      return { status, logs };
    });
    expect(first.events.map((e) => ({ status: e.data.status, logs: e.data.logs.length }))).toEqual(asOf);
    expect(first.events.every((e) => e.event === "status" && e.data.request_id === id)).toBe(true);
    expect(first.events.filter((e) => FINAL.includes(e.data.status))).toHaveLength(1);
    expect(first.events.at(-1)!.data).toMatchObject({ status: "completed", request_id: id });
    expect(first.events.at(-2)!.data.status).toBe("in_progress");
  });

  test("a reconnect with Last-Event-ID (or lastEventId) resumes right after that event: the same events, no replay", async () => {
    const { key } = await fundedActor(100);
    const { id, first } = await loggedJob(key);
    const cut = 4;
    const resumed = await readEvents(await stream(id, "status/stream", key, { query: "?logs=1", lastEventId: first.events[cut - 1]!.id }));
    expect(resumed.retry).toBe(1000);
    expect(resumed.events).toEqual(first.events.slice(cut));
    // EventSource polyfills send it as a query parameter.
    const polyfill = await readEvents(
      await stream(id, "status/stream", key, { query: `?logs=1&lastEventId=${first.events[cut - 1]!.id}` }),
    );
    expect(polyfill.events).toEqual(first.events.slice(cut));
    // Without logs the same ids name the status events: resuming after a log line's id sends the statuses after it.
    const statuses = await readEvents(await stream(id, "status/stream", key, { lastEventId: first.events[cut - 1]!.id }));
    expect(statuses.events.map((e) => e.data.status)).toEqual(["completed"]);
    expect(statuses.events[0]!.id).toBe(first.events.at(-1)!.id);
    expect(statuses.events[0]!.data.logs).toBeUndefined();
  });

  test("once the request is final a reconnect at or past the final event is 204 (EventSource stops reconnecting), with X-Request-ID; a first connection gets the final event", async () => {
    const { key } = await fundedActor(100);
    const { id, first } = await loggedJob(key);
    // Each stream's own final event: the status stream's `completed` status, the progress stream's `completed` stage.
    const finalProgress = (await logOf(id)).filter((r) => r.kind === "progress").at(-1)!;
    expect(finalProgress.data.stage).toBe("completed");
    const finalIds = { "status/stream": first.events.at(-1)!.id!, "progress/stream": String(finalProgress.seq) };
    for (const tail of ["status/stream", "progress/stream"] as const) {
      for (const lastEventId of [finalIds[tail], String(Number(finalIds[tail]) + 1000)]) {
        const res = await stream(id, tail, key, { lastEventId });
        expect(res.status, `${tail} ${lastEventId}`).toBe(204);
        expect(res.headers.get("x-request-id")).toMatch(/.+/);
        expect(await res.text()).toBe("");
      }
      // A first connection (an id that is not one counts as none): the final event alone, with its id.
      for (const lastEventId of [undefined, "not-an-id"]) {
        const res = await stream(id, tail, key, { lastEventId });
        expect(res.status, `${tail} ${lastEventId}`).toBe(200);
        expect((await readEvents(res)).events.map((e) => e.id)).toEqual([finalIds[tail]]);
      }
    }
  });

  test("progress/stream of a re-hosted run: queued, submitted, running, storing, completed, each with its log seq", async () => {
    const { key } = await fundedActor(100);
    const id = await submit("a quick lighthouse", key);
    const reading = readEvents(await stream(id, "progress/stream", key));
    await jobs.drain();
    const read = await reading;
    expect(read.retry).toBe(1000);
    expect(read.events.map((e) => `${e.event}:${e.data.stage}`)).toEqual([
      "progress:queued",
      "progress:submitted",
      "progress:running",
      "progress:storing",
      "progress:completed",
    ]);
    const progress = (await logOf(id)).filter((r) => r.kind === "progress");
    expect(read.events.map((e) => e.id)).toEqual(progress.map((r) => String(r.seq)));
  });

  test("a run ended by the provider's webhook also shows `storing` (the webhook copies the result); a passthrough run does not", async () => {
    const { key } = await fundedActor(100);
    const id = await submit("awaiting its webhook [latency:60000]", key);
    await jobs.drain();
    const reading = readEvents(await stream(id, "progress/stream", key));
    await deliverCompletion((await jobRow(id)).providerRequestId!);
    const stages = (await reading).events.map((e) => e.data.stage);
    expect(stages.slice(0, 2)).toEqual(["queued", "submitted"]);
    expect(stages.slice(-2)).toEqual(["storing", "completed"]);

    // Sync runs end before a stream can open; Last-Event-ID 0 (before any event) reads them whole.
    for (const [query, expected] of [
      ["", ["queued", "submitted", "storing", "completed"]],
      ["?passthrough=1", ["queued", "submitted", "completed"]],
    ] as const) {
      const ran = await call(RUN, `/run/${FLUX}${query}`, { params: pathOf(FLUX), body: { prompt: "a sync lighthouse" }, key });
      expect(ran.status).toBe(200);
      const read = await readEvents(await stream(ran.body.request_id, "progress/stream", key, { lastEventId: "0" }));
      expect(read.events.map((e) => e.data.stage)).toEqual(expected);
    }
  });

  test("a connection opened while the job runs, cut, then resumed before the end: only the events after the cut, and the one final event", async () => {
    const { key } = await fundedActor(100);
    const id = await submit("a slow lighthouse [latency:60000]", key);
    await jobs.drain();
    const cut = await readEvents(await stream(id, "status/stream", key), (_e, all) => all.length === 1);
    expect(cut.events).toEqual([
      { id: expect.stringMatching(/^\d+$/), event: "status", data: expect.objectContaining({ status: "queued", request_id: id }) },
    ]);
    const cutProgress = await readEvents(await stream(id, "progress/stream", key), (_e, all) => all.length === 2);
    expect(cutProgress.events.map((e) => e.data.stage)).toEqual(["queued", "submitted"]);

    const resumed = readEvents(await stream(id, "status/stream", key, { lastEventId: cut.events[0]!.id }));
    const resumedProgress = readEvents(await stream(id, "progress/stream", key, { lastEventId: cutProgress.events[1]!.id }));
    await deliverCompletion((await jobRow(id)).providerRequestId!);
    // Exactly the log's rows after each cut: nothing replayed, nothing skipped.
    const rows = await logOf(id);
    const after = (kind: string, id: string | undefined) =>
      rows.filter((r) => r.kind === kind && r.seq > Number(id)).map((r) => String(r.seq));
    const statuses = (await resumed).events;
    expect(statuses.map((e) => e.id)).toEqual(after("status", cut.events[0]!.id));
    expect(statuses.filter((e) => FINAL.includes(e.data.status))).toHaveLength(1);
    expect(statuses.at(-1)!.data.status).toBe("completed");
    const progress = (await resumedProgress).events;
    expect(progress.map((e) => e.id)).toEqual(after("progress", cutProgress.events[1]!.id));
    expect(progress.map((e) => e.data.stage).slice(-2)).toEqual(["storing", "completed"]);
  });

  test("a reconnect whose Last-Event-ID is before the final event learns the ending (the rest, then close); its next reconnect is 204", async () => {
    const { key } = await fundedActor(100);
    const id = await submit("a failing lighthouse [fail:generation]", key);
    await jobs.drain();
    await jobs.advance("1s");
    expect((await jobRow(id)).status).toBe("failed");
    const rows = (await logOf(id)).filter((r) => r.kind === "status");
    const rest = await readEvents(await stream(id, "status/stream", key, { lastEventId: String(rows[0]!.seq) }));
    expect(rest.events.map((e) => e.data.status)).toEqual(rows.slice(1).map((r) => r.data.status));
    expect(rest.events.at(-1)!.data).toMatchObject({ status: "failed", error: "generation_failed", request_id: id });
    // Earlier events carry no error: the failure came later.
    expect(rest.events.slice(0, -1).every((e) => e.data.error === undefined)).toBe(true);
    expect((await stream(id, "status/stream", key, { lastEventId: rest.events.at(-1)!.id })).status).toBe(204);
  });

  test("a cancelled request's final event says cancelled; a later stream sends it alone, its reconnect 204", async () => {
    const { key } = await fundedActor(100);
    const id = await submit("a cancelled lighthouse", key);
    const reading = readEvents(await stream(id, "status/stream", key));
    const cancelled = await call(PUT, `/queue/${FLUX}/requests/${id}/cancel`, {
      method: "PUT",
      params: pathOf(FLUX, "requests", id, "cancel"),
      key,
    });
    expect(cancelled.body).toEqual({ ok: true, status: "cancelled" });
    const events = (await reading).events;
    expect(events.map((e) => e.data.status)).toEqual(["queued", "cancelled"]);
    expect(events[1]!.data).toMatchObject({ error: "cancelled" });
    const late = (await readEvents(await stream(id, "status/stream", key))).events;
    expect(late).toEqual([events[1]]);
    expect((await stream(id, "status/stream", key, { lastEventId: late[0]!.id })).status).toBe(204);
    await jobs.drain();
  });
});

describe("limits", () => {
  test("an ended request's stream takes no slot: at the per-user cap it still answers its final event, or 204", async () => {
    process.env.STREAMS_PER_USER_MAX = "1";
    resetEnv();
    try {
      const { key } = await fundedActor(100);
      const running = await submit("held open [latency:60000]", key);
      const ended = await submit("ended", key);
      await jobs.drain();
      expect((await jobRow(ended)).status).toBe("completed");
      const held = await stream(running, "status/stream", key);
      expect(held.status).toBe(200);
      expect((await stream(running, "progress/stream", key)).status).toBe(429);
      expect((await stream(ended, "status/stream", key, { lastEventId: "1000" })).status).toBe(204);
      expect((await readEvents(await stream(ended, "status/stream", key))).events.map((e) => e.data.status)).toEqual(["completed"]);
      await held.body!.cancel();
    } finally {
      delete process.env.STREAMS_PER_USER_MAX;
      resetEnv();
    }
  });
});

describe("auth", () => {
  test("another user's request is 404 on both streams, exactly like a missing one, Last-Event-ID or not", async () => {
    const { key } = await fundedActor(100);
    const id = await submit("private", key);
    const other = await createActor();
    for (const tail of ["status/stream", "progress/stream"] as const) {
      for (const lastEventId of [undefined, "0"]) {
        for (const requestId of [id, "00000000-0000-4000-8000-000000000000"]) {
          const res = await stream(requestId, tail, other.key, { lastEventId });
          expect(res.status).toBe(404);
          expect(await res.json()).toMatchObject({ error: "not_found" });
          expect(res.headers.get("x-request-id")).toMatch(/.+/);
        }
      }
    }
    await jobs.drain();
  });
});
