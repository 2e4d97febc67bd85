import { asc, eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { getDb } from "@/db/client";
import { generationEvents } from "@/db/schema";
import { ManualClock } from "@/lib/jobs/clock";
import { startTestExecutor } from "@/lib/jobs/testing";
import { createActor } from "@/test/factories";
import { fundedActor, jobRow } from "@/test/generation";
import { call } from "@/test/http";
import { openStream, readEvents } from "@/test/sse";
import { POST as GENERATE } from "../../../generate/route";
import { GET } from "./route";

/**
 * The skill stream as a stock EventSource uses it: a `retry:` hint, an id on every event (the
 * job's event-log position), Last-Event-ID resuming without replay, exactly one `completed` /
 * `failed`, and 204 once the request is final.
 */
const FLUX = "fal-ai/flux/dev";
const clock = new ManualClock();
let jobs: Awaited<ReturnType<typeof startTestExecutor>>;
beforeAll(async () => {
  jobs = await startTestExecutor({ clock });
});
afterAll(() => jobs.uninstall());

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
const queue = async (prompt: string, key: string, input: Record<string, unknown> = {}) =>
  (await call(GENERATE, "/api/v1/generate", { body: { model: FLUX, input: { prompt, ...input } }, key })).body.id as string;
const stream = (id: string, key: string, options: { query?: string; lastEventId?: string } = {}) =>
  openStream(GET, `/api/v1/requests/${id}/stream${options.query ?? ""}`, {
    key,
    params: { requestId: id },
    lastEventId: options.lastEventId,
  });

async function statusAndLogRows(id: string) {
  const db = await getDb();
  const rows = await db.select().from(generationEvents).where(eq(generationEvents.generationId, id)).orderBy(asc(generationEvents.seq));
  return rows.filter((r) => r.kind !== "progress");
}

/** A job with log lines, its stream read from before it ran to its end. */
async function loggedJob(key: string) {
  const id = await queue("a logged harbour [latency:300]", key, { num_inference_steps: 4 });
  const res = await stream(id, key);
  expect(res.status).toBe(200);
  const reading = readEvents(res);
  await jobs.drain();
  await sleep(350);
  await jobs.advance("1s");
  return { id, first: await reading };
}

describe("success", () => {
  test("a retry hint, then status, log lines and exactly one `completed`, each with its log seq as id; then the stream closes", async () => {
    const { key } = await fundedActor(100);
    const { id, first } = await loggedJob(key);
    expect(first.text.startsWith("retry: 1000\n\n")).toBe(true);
    expect(first.retry).toBe(1000);
    const rows = await statusAndLogRows(id);
    expect(first.events.map((e) => e.id)).toEqual(rows.map((r) => String(r.seq)));
    expect(first.events[0]).toEqual({ id: String(rows[0]!.seq), event: "status", data: { id, status: "queued" } });
    expect(first.events.filter((e) => e.event === "log").length).toBeGreaterThanOrEqual(4);
    expect(
      first.events
        .filter((e) => e.event === "log")
        .every((e) => typeof e.data.message === "string" && typeof e.data.timestamp === "string"),
    ).toBe(true);
    expect(first.events.filter((e) => e.event === "completed" || e.event === "failed")).toHaveLength(1);
    expect(first.events.at(-1)).toMatchObject({
      event: "completed",
      data: { id, status: "completed", model: FLUX, output: expect.any(Object) },
    });
    // Each `status` carries the status its event recorded (the job's is `completed` by now).
    const statuses = rows.filter((r) => r.kind === "status").map((r) => r.data.status);
    expect(first.events.filter((e) => e.event === "status").map((e) => e.data.status)).toEqual(statuses.slice(0, -1));
    expect(statuses.slice(-2)).toEqual(["in_progress", "completed"]);
  });

  test("a reconnect with Last-Event-ID (or lastEventId) gets the events after it, no replay; after the final event, 204; a first connection then gets the final event", async () => {
    const { key } = await fundedActor(100);
    const { id, first } = await loggedJob(key);
    const cut = 3;
    const resumed = await readEvents(await stream(id, key, { lastEventId: first.events[cut - 1]!.id }));
    expect(resumed.retry).toBe(1000);
    expect(resumed.events).toEqual(first.events.slice(cut));
    const polyfill = await readEvents(await stream(id, key, { query: `?lastEventId=${first.events[cut - 1]!.id}` }));
    expect(polyfill.events).toEqual(first.events.slice(cut));

    const done = await stream(id, key, { lastEventId: first.events.at(-1)!.id });
    expect(done.status).toBe(204);
    expect(done.headers.get("x-request-id")).toMatch(/.+/);
    expect(await done.text()).toBe("");
    // A first connection (no Last-Event-ID) after the end: the final event alone, with its id, then the close.
    const late = await stream(id, key);
    expect(late.status).toBe(200);
    expect((await readEvents(late)).events).toEqual([first.events.at(-1)]);
  });

  test("a failed job: exactly one `failed` with the GenerationResult; a new connection then gets it alone, its reconnect 204", async () => {
    const { key } = await fundedActor(100);
    const id = await queue("a failing harbour [fail:generation]", key);
    const reading = readEvents(await stream(id, key));
    await jobs.drain();
    await jobs.advance("1s");
    const events = (await reading).events;
    expect(events.filter((e) => e.event === "completed" || e.event === "failed")).toHaveLength(1);
    expect(events.at(-1)).toMatchObject({ event: "failed", data: { id, status: "failed", error: expect.any(String) } });
    expect((await jobRow(id)).status).toBe("failed");
    const late = (await readEvents(await stream(id, key))).events;
    expect(late).toEqual([events.at(-1)]);
    expect((await stream(id, key, { lastEventId: late[0]!.id })).status).toBe(204);
  });
});

describe("auth", () => {
  test("another user's request is 404 NOT_FOUND, exactly like a missing one, Last-Event-ID or not", async () => {
    const { key } = await fundedActor(100);
    const id = await queue("private harbour", key);
    const other = await createActor();
    for (const requestId of [id, "missing"]) {
      for (const lastEventId of [undefined, "0"]) {
        const res = await stream(requestId, other.key, { lastEventId });
        expect(res.status).toBe(404);
        expect(await res.json()).toMatchObject({ code: "NOT_FOUND" });
        expect(res.headers.get("x-request-id")).toMatch(/.+/);
      }
    }
    await jobs.drain();
  });
});
