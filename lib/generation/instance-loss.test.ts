import { afterEach, describe, expect, test } from "vitest";
import { POST as QUEUE } from "@/app/(gateway)/queue/[...path]/route";
import { POST as RUN } from "@/app/(gateway)/run/[...path]/route";
import { getDb } from "@/db/client";
import { env } from "@/lib/core/env";
import { ManualClock } from "@/lib/jobs/clock";
import { installEventSink } from "@/lib/jobs/event-sink";
import { startTestExecutor } from "@/lib/jobs/testing";
import { localProvider } from "@/lib/provider/registry";
import { withEnv } from "@/test/env";
import { fundedActor, jobRow, ledgerOf, pathOf, simulatorRequestsFor } from "@/test/generation";
import { call } from "@/test/http";
import { eq } from "drizzle-orm";
import { gatewayInstances, generationRequests } from "@/db/schema";
import { redriveGenerations } from "./redrive";
import { STALE_MS, takeOverDeadRunners } from "./runners";

/**
 * An instance killed under load loses no job: whatever it held is finished by another instance
 * (a queued job's run, once its lease expires) or by the re-drive sweep (a sync job whose request
 * died with the process), on the same provider request, charged once.
 */
const FLUX = "fal-ai/flux/dev";
const SMALL = { image_size: { width: 256, height: 256 } };
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
const cleanups: (() => void)[] = [];
afterEach(() => {
  for (const undo of cleanups.splice(0).reverse()) undo();
});

describe("an instance dies", () => {
  test("mid-step of a queued job: another instance takes the run over after its lease and finishes it on the same provider request, charged once", async () => {
    const clock = new ManualClock();
    const dying = await startTestExecutor({ clock });
    const { user, key } = await fundedActor(100);
    const res = await call(QUEUE, `/queue/${FLUX}`, {
      params: pathOf(FLUX),
      body: { prompt: "an orphaned lighthouse [latency:300]", ...SMALL },
      key,
    });
    expect(res.status).toBe(200);
    const id = res.body.request_id as string;
    // The instance dies while its run checks the provider's status: the step's own work is done,
    // the executor writes nothing more (its memo, its park) and holds the run until the lease ends.
    const provider = localProvider();
    const status = provider.status;
    provider.status = function (...args) {
      dying.kill();
      return status.apply(this, args);
    };
    cleanups.push(() => (provider.status = status));
    await dying.drain();
    expect((await jobRow(id)).providerRequestId).toEqual(expect.any(String));
    expect(["queued", "in_progress"]).toContain((await jobRow(id)).status);
    // Its run is still held under the dead instance's lease.
    const [held] = await dying.runsForEvent(`generation:${id}`);
    expect(held).toMatchObject({ status: "running", lease: expect.stringContaining(dying.id) });
    provider.status = status;

    const other = await startTestExecutor({ clock });
    cleanups.push(other.uninstall);
    await other.drain();
    // The dead holder's lease has not run out yet: the job waits for it.
    expect(["queued", "in_progress"]).toContain((await jobRow(id)).status);
    expect(await other.runsForEvent(`generation:${id}`)).toMatchObject([{ status: "running", lease: held!.lease }]);
    // The simulator's own time is wall-clock time: wait until it has finished the job.
    const ref = { endpointId: FLUX, providerRequestId: (await jobRow(id)).providerRequestId! };
    while ((await provider.status(ref)).status !== "succeeded") await sleep(50);
    await other.advance("31s");
    await other.runUntilIdle({ withinMs: 60_000 });
    expect(await jobRow(id)).toMatchObject({ status: "completed" });
    expect(await simulatorRequestsFor(id)).toHaveLength(1);
    expect((await ledgerOf(user.id)).map((t) => t.type)).toEqual(["generation_reserve"]);
  });

  test("with a sync request in flight: the request dies with it, the re-drive sweep hands the job to the queue, which finishes the same provider request, charged once", async () => {
    const clock = new ManualClock();
    const jobs = await startTestExecutor({ clock });
    cleanups.push(jobs.uninstall);
    const { user, key } = await fundedActor(100);
    let id: string;
    // The instance stops waiting (its process is going) and cannot hand the job over either: the
    // job is left as a crash leaves it, submitted and reserved, with no run and nobody waiting.
    const lost = installEventSink(() => Promise.reject(new Error("the instance is gone")));
    try {
      await withEnv({ RUN_SYNC_TIMEOUT_MS: "200" }, async () => {
        const res = await call(RUN, `/run/${FLUX}`, {
          params: pathOf(FLUX),
          body: { prompt: "a stranded lighthouse [latency:700]", ...SMALL },
          key,
        });
        expect(res.status).toBe(504);
        id = res.body.requestId;
      });
    } finally {
      lost();
    }
    const { installExecutor } = await import("@/lib/jobs/runtime");
    cleanups.push(installExecutor(jobs));
    expect(await jobRow(id!)).toMatchObject({ status: "queued", providerRequestId: expect.any(String) });
    expect(await jobs.runsForEvent(`generation:${id!}`)).toHaveLength(0);

    // The sweep, once the job is older than the sync wait and its grace.
    const later = Date.now() + env().RUN_SYNC_TIMEOUT_MS + 61_000;
    // A queued job of the same age whose run exists is left alone (its send would be a no-op).
    const busy = await fundedActor(100);
    const running = await call(QUEUE, `/queue/${FLUX}`, {
      params: pathOf(FLUX),
      body: { prompt: "a busy lighthouse [latency:60000]", ...SMALL },
      key: busy.key,
    });
    await jobs.drain();
    const sent: string[] = [];
    installEventSink((events) => (sent.push(...events.map((e) => String(e.id))), jobs.send(events)));
    expect((await redriveGenerations(await getDb(), later)).jobs).toBeGreaterThanOrEqual(1);
    expect(sent).toContain(`generation:${id!}`);
    expect(sent).not.toContain(`generation:${running.body.request_id}`);
    installExecutor(jobs);
    await sleep(700);
    await jobs.runUntilIdle({ withinMs: 60_000 });
    expect(await jobRow(id!)).toMatchObject({ status: "completed" });
    expect(await simulatorRequestsFor(id!)).toHaveLength(1);
    expect((await ledgerOf(user.id)).map((t) => t.type)).toEqual(["generation_reserve"]);
  });

  test("with a sync request cut off by a crash: once its process stops beating, a peer's beat hands the job over and a repeat with its Idempotency-Key on the peer answers it, charged once", async () => {
    const clock = new ManualClock();
    const jobs = await startTestExecutor({ clock });
    cleanups.push(jobs.uninstall);
    const { user, key } = await fundedActor(100);
    const body = { prompt: "a crashed lighthouse [latency:1500]", ...SMALL };
    const idem = { "Idempotency-Key": `crash-${crypto.randomUUID()}` };
    let id: string;
    // The dying process: its request ends with it and its hand-over is lost (a SIGKILL sends nothing).
    const lost = installEventSink(() => Promise.reject(new Error("the instance is gone")));
    try {
      await withEnv({ RUN_SYNC_TIMEOUT_MS: "300" }, async () => {
        const res = await call(RUN, `/run/${FLUX}`, { params: pathOf(FLUX), body, key, headers: idem });
        expect(res.status).toBe(504);
        id = res.body.requestId;
      });
    } finally {
      lost();
    }
    const { installExecutor } = await import("@/lib/jobs/runtime");
    cleanups.push(installExecutor(jobs));
    // That process was another instance; it last beat longer than STALE_MS ago.
    const db = await getDb();
    await db.insert(gatewayInstances).values({ id: "killed-instance", heartbeatAt: new Date(Date.now() - STALE_MS - 1_000) });
    await db.update(generationRequests).set({ runner: "killed-instance" }).where(eq(generationRequests.id, id!));
    expect(await jobRow(id!)).toMatchObject({ status: "queued", providerRequestId: expect.any(String) });

    // A client's retry reaches this instance and waits on the job…
    const retry = call(RUN, `/run/${FLUX}`, { params: pathOf(FLUX), body, key, headers: idem });
    // …until this instance's next beat finds the silent one: exactly one beat takes its jobs over.
    expect(await takeOverDeadRunners(db)).toEqual([id!]);
    expect(await takeOverDeadRunners(db)).toEqual([]);
    expect(await jobs.runsForEvent(`generation:${id!}`)).toHaveLength(1);
    while ((await jobRow(id!)).status !== "completed") {
      await sleep(100);
      await jobs.advance("2s");
    }
    const answer = await retry;
    expect(answer.status).toBe(200);
    expect(answer.body).toMatchObject({ request_id: id!, images: [expect.any(Object)] });
    expect(await simulatorRequestsFor(id!)).toHaveLength(1);
    expect((await ledgerOf(user.id)).map((t) => t.type)).toEqual(["generation_reserve"]);
  });

  test("a sync job whose process is gone and whose hand-over was lost is re-driven by the next sweep, not after the sync wait", async () => {
    const jobs = await startTestExecutor({ clock: new ManualClock() });
    cleanups.push(jobs.uninstall);
    const { key } = await fundedActor(100);
    const lost = installEventSink(() => Promise.reject(new Error("the instance is gone")));
    let id: string;
    try {
      await withEnv({ RUN_SYNC_TIMEOUT_MS: "200" }, async () => {
        id = (await call(RUN, `/run/${FLUX}`, { params: pathOf(FLUX), body: { prompt: "lost twice [latency:700]", ...SMALL }, key })).body
          .requestId;
      });
    } finally {
      lost();
    }
    const db = await getDb();
    // Its process's row was deleted by a peer whose hand-over then failed.
    await db.update(generationRequests).set({ runner: "vanished-instance" }).where(eq(generationRequests.id, id!));
    const sent: string[] = [];
    const sink = installEventSink((events) => (sent.push(...events.map((e) => String(e.id))), jobs.send(events)));
    cleanups.push(sink);
    await redriveGenerations(db);
    expect(sent).toContain(`generation:${id!}`);
  });
});
