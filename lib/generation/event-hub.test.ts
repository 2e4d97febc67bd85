import { asc, eq, sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { GET, POST } from "@/app/(gateway)/queue/[...path]/route";
import { GET as SKILL_STREAM } from "@/app/api/v1/requests/[requestId]/stream/route";
import { getDb, getDbHandle, postgresHandle, rawRows, type DbHandle } from "@/db/client";
import { generationEvents } from "@/db/schema";
import { startTestExecutor } from "@/lib/jobs/testing";
import { ManualClock } from "@/lib/jobs/clock";
import { fundedActor, pathOf } from "@/test/generation";
import { testDatabaseUrl, withDatabase } from "@/test/db";
import { call } from "@/test/http";
import { openStream, readEvents } from "@/test/sse";
import { progressEvent, statusEvent } from "./event-log";
import { appendEvents } from "./store";
import { endingTopic, eventHub, generationTopic, hubOf, watch } from "./event-hub";

/**
 * Change notices fan event-log writes out to every instance's streams (event-hub.ts). "Another
 * instance" is a second database handle on the same database: on PostgreSQL (TEST_DATABASE_URL)
 * its own pool and its own listening connection, as a second app process has; on PGlite (one
 * connection) the same database, so the notice path runs but is single-instance. The writes below
 * go straight to the event log without this process's in-process wake-up, and streams no longer
 * poll while notices arrive: a stream that ends here was woken by NOTIFY.
 */
const FLUX = "fal-ai/flux/dev";
const clock = new ManualClock();
let jobs: Awaited<ReturnType<typeof startTestExecutor>>;
let other: DbHandle;
let otherClose: () => Promise<void> = async () => {};

beforeAll(async () => {
  jobs = await startTestExecutor({ clock });
  const url = testDatabaseUrl();
  if (url) {
    const [row] = await rawRows<{ name: string }>(await getDb(), sql`select current_database() as name`);
    other = postgresHandle(withDatabase(url, row!.name), 2);
    otherClose = other.close;
  } else {
    other = await getDbHandle();
  }
});
afterAll(async () => {
  jobs.uninstall();
  await otherClose();
});

const submit = async (prompt: string, key: string) =>
  (await call(POST, `/queue/${FLUX}`, { params: pathOf(FLUX), body: { prompt }, key })).body.requestId as string;
const gatewayStream = (id: string, tail: "status/stream" | "progress/stream", key: string, lastEventId?: string) =>
  openStream(GET, `/queue/${FLUX}/requests/${id}/${tail}`, { key, params: pathOf(FLUX, "requests", id, ...tail.split("/")), lastEventId });

describe("success", () => {
  test("the hub listens on the embedded database and on PostgreSQL; a notice committed elsewhere reaches a watch here", async () => {
    const hub = await eventHub();
    await hub.ready();
    expect(hub.listening).toBe(true);
    const { key } = await fundedActor(100);
    const id = await submit("held [latency:60000]", key);
    const w = watch(hub, [generationTopic(id)]);
    const woken = w.wait({ fallbackMs: 60_000 });
    await appendEvents(other.db, id, [progressEvent("running")]);
    expect([...(await woken)]).toEqual([generationTopic(id)]);
    w.close();
  });

  test("a job's ending has a topic of its own: progress notifies `g:` only, the final status `e:` too", async () => {
    const hub = await eventHub();
    await hub.ready();
    const { key } = await fundedActor(100);
    const id = await submit("ends elsewhere [latency:60000]", key);
    const any = watch(hub, [generationTopic(id)]);
    const ending = watch(hub, [endingTopic(id)]);
    await appendEvents(other.db, id, [statusEvent("in_progress"), progressEvent("running")]);
    expect([...(await any.wait({ fallbackMs: 60_000 }))]).toEqual([generationTopic(id)]);
    // Both topics of one commit arrive together: had progress notified `e:`, it would be here.
    expect([...(await ending.wait({ fallbackMs: 0, untilMs: Date.now() + 200 }))]).toEqual([]);
    await appendEvents(other.db, id, [statusEvent("failed", { error: "generation_failed" })]);
    expect([...(await ending.wait({ fallbackMs: 60_000 }))]).toEqual([endingTopic(id)]);
    expect([...(await any.wait({ fallbackMs: 60_000 }))]).toEqual([generationTopic(id)]);
    any.close();
    ending.close();
  });

  test("streams on both surfaces end with their final event when another instance writes the ending (no in-process wake-up, no polling)", async () => {
    const { key } = await fundedActor(100);
    const gatewayJob = await submit("held open [latency:60000]", key);
    await jobs.drain();
    const status = readEvents(await gatewayStream(gatewayJob, "status/stream", key));
    const progress = readEvents(await gatewayStream(gatewayJob, "progress/stream", key));
    // Another instance's writer: the stream hears of it only through the database.
    await appendEvents(other.db, gatewayJob, [statusEvent("in_progress"), progressEvent("running")]);
    await appendEvents(other.db, gatewayJob, [
      statusEvent("failed", { error: "generation_failed" }),
      progressEvent("failed", { message: "the model failed" }),
    ]);
    const statuses = (await status).events.map((e) => e.data.status);
    expect(statuses.slice(-2)).toEqual(["in_progress", "failed"]);
    expect((await progress).events.map((e) => e.data.stage)).toEqual(["queued", "submitted", "running", "failed"]);

    const skillJob = await submit("held open too [latency:60000]", key);
    await jobs.drain();
    const skill = readEvents(
      await openStream(SKILL_STREAM, `/api/v1/requests/${skillJob}/stream`, { key, params: { requestId: skillJob } }),
    );
    await appendEvents(other.db, skillJob, [statusEvent("failed", { error: "generation_failed" })]);
    const read = await skill;
    // queued, then its queue position a second in (the submit step's look), then the ending.
    expect(read.events.map((e) => e.event)).toEqual(["status", "status", "failed"]);
  });

  test("two writers of one job commit in seq order: the second waits for the first's lock, so a resumed stream skips no row", async () => {
    const { key } = await fundedActor(100);
    const id = await submit("two writers [latency:60000]", key);
    await jobs.drain();
    const db = await getDb();
    let second: Promise<void> | undefined;
    let secondDone = false;
    await db.transaction(async (tx) => {
      await appendEvents(tx, id, [progressEvent("running", { message: "first writer" })]);
      // The other instance writes the same job while the first transaction is open.
      second = appendEvents(other.db, id, [progressEvent("storing", { message: "second writer" })]).then(() => {
        secondDone = true;
      });
      await new Promise((r) => setTimeout(r, 200));
      // Not committed before the first writer's commit (on PGlite it waits for the one connection).
      expect(secondDone).toBe(false);
    });
    await second;
    const rows = await db
      .select({ seq: generationEvents.seq, data: generationEvents.data })
      .from(generationEvents)
      .where(eq(generationEvents.generationId, id))
      .orderBy(asc(generationEvents.seq));
    expect(rows.map((r) => r.data.message).filter(Boolean)).toEqual(["first writer", "second writer"]);

    // A stream resumed after the first writer's row gets the second's.
    const first = rows.find((r) => r.data.message === "first writer")!;
    const resumed = readEvents(
      await gatewayStream(id, "progress/stream", key, String(first.seq)),
      (e) => e.data.message === "second writer",
    );
    expect((await resumed).events.map((e) => e.data.message)).toEqual(["second writer"]);
  });

  test("a caller's standing changed on another instance ends its open stream (a notice, not a timer)", async () => {
    const { key, user } = await fundedActor(100);
    const id = await submit("standing [latency:60000]", key);
    await jobs.drain();
    const reading = readEvents(await gatewayStream(id, "status/stream", key));
    await other.db.execute(sql`update users set banned = true where id = ${user.id}`);
    const read = await reading;
    expect(read.events.at(-1)).toMatchObject({ id: undefined, event: "error", data: { error: "forbidden" } });
  });
});

describe("hub", () => {
  test("one hub per database handle; a follower released is no longer called", async () => {
    const handle = await getDbHandle();
    expect(hubOf(handle)).toBe(await eventHub());
    const hub = await eventHub();
    const seen: string[] = [];
    const release = hub.follow(["g:x"], (t) => seen.push(t));
    hub.deliver("g:x");
    release();
    hub.deliver("g:x");
    expect(seen).toEqual(["g:x"]);
  });
});
