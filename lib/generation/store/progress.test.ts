import { asc, eq } from "drizzle-orm";
import { describe, expect, test } from "vitest";
import { getDb } from "@/db/client";
import { generationEvents, generationRequests } from "@/db/schema";
import type { Principal } from "@/lib/auth/principal";
import { getModelForRun } from "@/lib/catalog/get";
import { fundedActor } from "@/test/generation";
import { createGeneration } from "../create-generation";
import { singleRoute } from "../routing";
import { logEvent, progressEvent, statusEvent } from "../event-log";
import { end as finalizeGeneration } from "../lifecycle";
import { markInProgress } from "./progress";

const FLUX = "fal-ai/flux/dev";

async function queuedJob() {
  const db = await getDb();
  const actor = await fundedActor(10);
  const principal: Principal = {
    userId: actor.user.id,
    email: actor.user.email,
    name: actor.user.name,
    role: actor.user.role,
    source: "api_key",
    apiKeyId: actor.apiKey.id,
    apiKeyMode: "live",
    sessionId: null,
    keyLimit: null,
  };
  const model = await getModelForRun(db, FLUX);
  const job = await createGeneration(
    { requestId: "req-progress", db, principal },
    {
      model,
      input: { prompt: "a harbour at dawn" },
      surface: "gateway",
      mode: "queue",
      operation: "queue",
      plan: singleRoute("local", model.alias),
      quoteCredits: 100,
      webhookUrl: null,
      passthrough: false,
    },
  );
  return { db, job };
}

const eventsOf = async (id: string) =>
  (await getDb())
    .select({ kind: generationEvents.kind, data: generationEvents.data })
    .from(generationEvents)
    .where(eq(generationEvents.generationId, id))
    .orderBy(asc(generationEvents.seq));

describe("markInProgress: the move to running and its events in one statement", () => {
  const moveEvents = [statusEvent("in_progress"), progressEvent("running"), logEvent("Step 1/4", "2026-11-28T00:00:00Z")];

  test("a queued job moves once, its events written in order after the ones it had", async () => {
    const { db, job } = await queuedJob();
    const before = await eventsOf(job.id);
    expect(await markInProgress(db, job.id, moveEvents)).toBe(true);
    const [row] = await db.select().from(generationRequests).where(eq(generationRequests.id, job.id));
    expect(row).toMatchObject({ status: "in_progress", queuePosition: null });
    expect(row!.startedAt).toBeInstanceOf(Date);
    expect(row!.updatedAt.getTime()).toBeGreaterThanOrEqual(job.updatedAt.getTime());
    const after = await eventsOf(job.id);
    expect(after.slice(0, before.length)).toEqual(before);
    expect(after.slice(before.length)).toEqual([
      { kind: "status", data: { status: "in_progress" } },
      { kind: "progress", data: { stage: "running" } },
      { kind: "log", data: expect.objectContaining({ message: "Step 1/4" }) },
    ]);
    // A second check that sees it running moves nothing and writes nothing.
    expect(await markInProgress(db, job.id, moveEvents)).toBe(false);
    expect(await eventsOf(job.id)).toHaveLength(after.length);
  });

  test("an ended job is not moved back to running, and gets no events", async () => {
    const { db, job } = await queuedJob();
    await finalizeGeneration(db, job, { kind: "cancelled" });
    const ended = await eventsOf(job.id);
    expect(await markInProgress(db, job.id, moveEvents)).toBe(false);
    const [row] = await db.select().from(generationRequests).where(eq(generationRequests.id, job.id));
    expect(row!.status).toBe("cancelled");
    expect(await eventsOf(job.id)).toEqual(ended);
  });
});
