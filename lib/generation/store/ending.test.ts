import { asc, eq } from "drizzle-orm";
import { describe, expect, test } from "vitest";
import { getDb } from "@/db/client";
import { activity, creditTransactions, generationEvents, generationRequests } from "@/db/schema";
import type { Principal } from "@/lib/auth/principal";
import { quoteForOutput } from "@/lib/pricing/pricing";
import { getModelForRun } from "@/lib/catalog/get";
import { fundedActor } from "@/test/generation";
import { createGeneration } from "../create-generation";
import { singleRoute } from "../routing";
import { progressEvent } from "../event-log";
import { end as finalizeGeneration } from "../lifecycle";
import type { GenerationOutcome } from "../types";
import type { EndingPath } from "./ending";

// The ending has two paths (one statement; a transaction when a price difference or a callback
// needs it). Twin jobs, ended the same way through each path, must leave identical rows.

const FLUX = "fal-ai/flux/dev";
const input = { prompt: "a lighthouse at dusk", image_size: "square_hd" };
const providerOutput = { images: [{ url: "https://cdn.example/a.png", width: 1024, height: 1024, content_type: "image/png" }] };

async function endTwin(path: EndingPath, outcome: GenerationOutcome) {
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
    { requestId: "req-twin", db, principal },
    {
      model,
      input,
      surface: "gateway",
      mode: "sync",
      operation: "run",
      plan: singleRoute("local", model.alias),
      // The actual output's price: a completion settles nothing, so either path may end it.
      quoteCredits: quoteForOutput(model, providerOutput, input).credits,
      webhookUrl: null,
      passthrough: false,
    },
  );
  const at = (ms: number) => new Date(job.createdAt.getTime() + ms);
  const unrecorded = {
    submission: {
      providerRequestId: `p-${job.id}`,
      queuePosition: null,
      at: at(5),
      provider: "local",
      endpointId: job.modelId,
      attempts: [],
      costCredits: null,
    },
    events: [progressEvent("submitted")],
    written: [],
  };
  const first = await finalizeGeneration(db, job, outcome, unrecorded, at(1234), path);
  const second = await finalizeGeneration(db, job, { kind: "cancelled" }, unrecorded, at(2000), path);
  return { job, first, second, rows: await rowsOf(job.id, actor.user.id, actor.apiKey.id, job.createdAt) };
}

/** Everything a job's life wrote, with its own ids and times made relative so twins compare equal. */
async function rowsOf(id: string, userId: string, apiKeyId: string, createdAt: Date) {
  const db = await getDb();
  const own = (value: unknown): unknown => {
    if (value instanceof Date) return value.getTime() - createdAt.getTime();
    if (typeof value === "string")
      return value
        .replaceAll(id, "<job>")
        .replaceAll(userId, "<user>")
        .replaceAll(apiKeyId, "<key>")
        .replace(/^txn_\w+$/, "<txn>");
    return value;
  };
  const relative = (row: Record<string, unknown>) => Object.fromEntries(Object.entries(row).map(([k, v]) => [k, own(v)]));
  const [job] = await db.select().from(generationRequests).where(eq(generationRequests.id, id));
  const ledger = await db
    .select()
    .from(creditTransactions)
    .where(eq(creditTransactions.userId, userId))
    .orderBy(asc(creditTransactions.amount));
  const records = await db.select().from(activity).where(eq(activity.requestId, id));
  const events = await db.select().from(generationEvents).where(eq(generationEvents.generationId, id)).orderBy(asc(generationEvents.seq));
  return {
    job: relative(job!),
    // Ledger rows are stamped by the database's clock: their order and contents are compared, not their times.
    ledger: ledger.map((row) => relative({ ...row, createdAt: null })),
    activity: records.map((row) => relative({ ...row, id: null, createdAt: null })),
    events: events.map((e) => ({ kind: e.kind, data: e.data })),
  };
}

const outcomes: [string, GenerationOutcome][] = [
  ["completed at the reserved price", { kind: "completed", providerOutput, output: { images: [{ url: "https://gw.example/a.png" }] } }],
  ["failed and refunded", { kind: "failed", errorCode: "provider_error", message: "The provider failed" }],
  ["cancelled and refunded", { kind: "cancelled" }],
];

describe("success", () => {
  test.each(outcomes)("an ending %s writes the same rows through the statement and the transaction", async (_, outcome) => {
    const statement = await endTwin("statement", outcome);
    const transaction = await endTwin("transaction", outcome);

    expect(statement.first.applied).toBe(true);
    expect(transaction.first.applied).toBe(true);
    expect(transaction.rows).toEqual(statement.rows);
    expect(statement.rows.job.status).toBe(outcome.kind);
    expect(statement.rows.activity).toHaveLength(1);
    const refunded = outcome.kind !== "completed";
    expect(statement.rows.ledger.map((t) => t.type)).toEqual(
      refunded ? ["generation_reserve", "generation_refund", "grant"] : ["generation_reserve", "grant"],
    );
    expect(statement.rows.job.costSettledCredits).toBe(refunded ? 0 : statement.job.costReservedCredits);
    expect(statement.rows.events.map((e) => e.data.status ?? e.data.stage)).toEqual([
      "queued",
      "queued",
      "submitted",
      outcome.kind,
      outcome.kind,
    ]);
  });

  test.each(["statement", "transaction"] as const)("a second ending through the %s path changes nothing", async (path) => {
    const { first, second, rows } = await endTwin(path, { kind: "failed", errorCode: "provider_error", message: "The provider failed" });
    expect(second.applied).toBe(false);
    expect(second.row).toEqual(first.row);
    expect(rows.ledger.filter((t) => t.type === "generation_refund")).toHaveLength(1);
    expect(rows.activity).toHaveLength(1);
  });
});
