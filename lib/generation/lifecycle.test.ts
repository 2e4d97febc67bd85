import { and, asc, eq } from "drizzle-orm";
import { afterAll, beforeAll, beforeEach, describe, expect, test } from "vitest";
import { getDb } from "@/db/client";
import { activity, assets, creditTransactions, generationEvents, generationRequests, inboundEvents } from "@/db/schema";
import { ManualClock } from "@/lib/jobs/clock";
import { startTestExecutor } from "@/lib/jobs/testing";
import { resetBreakers } from "@/lib/provider/circuit-breaker";
import { providerRegistration, registerProvider, resetProviders } from "@/lib/provider/registry";
import { LocalProvider } from "@/simulators/local-provider/provider";
import { fundedActor, jobsOf, pathOf, simulatorRequestsFor } from "@/test/generation";
import { call } from "@/test/http";
import { POST as QUEUE } from "@/app/(gateway)/queue/[...path]/route";
import { POST as RUN } from "@/app/(gateway)/run/[...path]/route";
import { POST as WEBHOOK } from "@/app/(gateway)/webhooks/provider/route";
import { providerWebhookUrl } from "./lifecycle";

/**
 * Issue 37 item 2: one lifecycle (submit, check, collect, end) and three drivers that carry a job
 * through it — the inline sync run (`POST /run`), the queued `run-generation` function ending the
 * job from its own status check, and the provider's completion webhook (`POST /webhooks/provider`)
 * ending it before any check does. The same generation (model, input, funding) carried by each
 * must write the same rows: the job's final fields, its events, its ledger rows, its activity row
 * and its files. This is the twin-path test of store/ending.test.ts extended to whole runs; where
 * the drivers legitimately differ, the difference is asserted and explained, not normalised away.
 *
 * The simulator is the app's own (LocalProvider, same code), built here with two things a test must
 * hold: its clock (it stands still while a queued job is submitted and first checked, so that check
 * sees it queued whatever the machine's load, then jumps past the job's end), and where its signed
 * completion webhook goes (`fetch`: lost on the way, or handed to the webhook route handler when
 * the test lets it arrive).
 */

const FLUX = "fal-ai/flux/dev";
const FLUX_SQUARE_HD = 23_593;
const FUNDS = 1_000_000;
/** Every request's latency at the simulator (a fifth of it queued): the inline run waits it out. */
const LATENCY_MS = 400;

/** The simulator's clock: follows the wall clock, or stands still (`pause`) until the test moves it. */
class SimClock {
  private base = Date.now();
  private anchor: number | null = Date.now();
  now = () => (this.anchor === null ? this.base : this.base + Date.now() - this.anchor);
  pause() {
    this.base = this.now();
    this.anchor = null;
  }
  resume() {
    if (this.anchor === null) this.anchor = Date.now();
  }
  advance(ms: number) {
    this.base += ms;
  }
}

/**
 * Where the simulator's completion webhooks go. `lost`: the gateway is unreachable from the
 * provider (a network failure; with one attempt allowed the simulator gives up). `held`: they wait
 * until the test opens the gate, then reach the route handler as the signed request the simulator built.
 */
const wire = {
  fate: "lost" as "lost" | "held",
  gate: Promise.resolve(),
  open: () => {},
  deliveries: [] as { url: string; fate: "lost" | "arrived"; status?: number; body?: unknown }[],
};

function holdWebhooks() {
  wire.fate = "held";
  wire.gate = new Promise<void>((resolve) => (wire.open = resolve));
}

async function simulatorFetch(url: string | URL | Request, init?: RequestInit): Promise<Response> {
  const to = String(url);
  if (wire.fate === "lost") {
    wire.deliveries.push({ url: to, fate: "lost" });
    throw new TypeError("fetch failed: the gateway is unreachable from the provider");
  }
  await wire.gate;
  const res = await call(WEBHOOK, to, { body: String(init!.body), headers: init!.headers as Record<string, string> });
  wire.deliveries.push({ url: to, fate: "arrived", status: res.status, body: res.body });
  return res.response;
}

const simClock = new SimClock();
const sim = new LocalProvider({
  now: simClock.now,
  fetch: simulatorFetch as typeof fetch,
  webhookMaxAttempts: 1,
  settings: { profile: "instant", latencyMs: LATENCY_MS, latencyScale: 1, errorRate: 0 },
});
const registered = providerRegistration("local")!;
let jobs: Awaited<ReturnType<typeof startTestExecutor>>;

beforeAll(async () => {
  registerProvider("local", { ...registered, create: () => sim });
  resetProviders();
  jobs = await startTestExecutor({ clock: new ManualClock() });
});
afterAll(() => {
  jobs.uninstall();
  registerProvider("local", registered);
  resetProviders();
});
beforeEach(() => {
  resetBreakers();
  simClock.resume();
  wire.fate = "lost";
  wire.deliveries = [];
});

type Driver = "inline" | "check" | "webhook";

/** Sends every webhook the simulator owes now (or waits for the one its own timer sent). */
async function simulatorDeliversWebhooks() {
  await sim.webhooks.deliverDue();
  await sim.webhooks.idle();
}

/**
 * Carries one generation (a new user with FUNDS) to its end through `driver`, which ends it as
 * `ends`; answers its id, what the driver answered and the queued run.
 */
async function carry(driver: Driver, body: Record<string, unknown>, ends: "completed" | "failed") {
  const { user, key } = await fundedActor(FUNDS / 10_000);
  if (driver === "inline") {
    const answer = await call(RUN, `/run/${FLUX}`, { params: pathOf(FLUX), body, key });
    const [job] = await jobsOf(user.id);
    return { id: job!.id, answer, run: null };
  }
  simClock.pause();
  wire.deliveries = [];
  wire.fate = "lost";
  if (driver === "webhook") holdWebhooks();
  const queued = await call(QUEUE, `/queue/${FLUX}`, { params: pathOf(FLUX), body, key });
  expect(queued.status).toBe(200);
  const id = queued.body.requestId as string;
  // Everything due now: the job goes to the provider (by the queue request or by its run's first
  // step, which also looks at its status and finds it queued: the simulator's clock stands still).
  await jobs.drain();
  const [submitted] = await jobsOf(user.id);
  expect(submitted).toMatchObject({ status: "queued", providerRequestId: expect.any(String) });
  // The provider finishes the job and sends its webhook: lost, or let through to /webhooks/provider.
  simClock.advance(LATENCY_MS);
  wire.open();
  await simulatorDeliversWebhooks();
  expect(wire.deliveries).toEqual([
    expect.objectContaining({ url: providerWebhookUrl(), fate: driver === "webhook" ? "arrived" : "lost" }),
  ]);
  // The webhook ended the job before the run looked again; without it the job waits for the run.
  const [delivered] = await jobsOf(user.id);
  expect(delivered!.status).toBe(driver === "webhook" ? ends : "queued");
  // The run goes on to its end, whenever its checks come (the fallback checks of a provider that
  // calls back are rare): its check finds the job done and collects it, or the webhook's event
  // leaves it nothing to do.
  await jobs.runUntilIdle();
  expect(await jobs.activeRunCount()).toBe(0);
  const [run] = await jobs.runsForEvent(`generation:${id}`);
  return { id, answer: driver === "webhook" ? wire.deliveries[0]! : queued, run: run! };
}

/** Everything the job's life wrote, with ids, times and signed links made comparable. */
async function rowsOf(id: string) {
  const db = await getDb();
  const [job] = await db.select().from(generationRequests).where(eq(generationRequests.id, id));
  const ledger = await db
    .select()
    .from(creditTransactions)
    .where(eq(creditTransactions.generationId, id))
    .orderBy(asc(creditTransactions.createdAt), asc(creditTransactions.amount));
  const records = await db.select().from(activity).where(eq(activity.requestId, id));
  const events = await db.select().from(generationEvents).where(eq(generationEvents.generationId, id)).orderBy(asc(generationEvents.seq));
  const files = await db.select().from(assets).where(eq(assets.generationId, id)).orderBy(asc(assets.s3Key));
  const webhooks = await db
    .select()
    .from(inboundEvents)
    .where(and(eq(inboundEvents.source, "provider"), eq(inboundEvents.externalId, `local:${job!.providerRequestId}`)));

  const names = new Map<string, string>([
    [job!.id, "<job>"],
    [job!.userId, "<user>"],
    [job!.apiKeyId!, "<key>"],
    ...(job!.providerRequestId ? ([[job!.providerRequestId, "<provider-request>"]] as const) : []),
    ...(job!.httpRequestId ? ([[job!.httpRequestId, "<http-request>"]] as const) : []),
    ...(job!.runner ? ([[job!.runner, "<this process>"]] as const) : []),
    ...files.map((f, i) => [f.id, `<asset ${i}>`] as const),
  ]);
  const norm = (value: unknown): unknown => {
    if (value instanceof Date) return "<time>";
    if (Array.isArray(value)) return value.map(norm);
    if (value && typeof value === "object") return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, norm(v)]));
    if (typeof value !== "string") return value;
    let text = value;
    for (const [raw, name] of names) text = text.replaceAll(raw, name);
    return (
      text
        .replace(/^txn_\w+$/, "<txn>")
        // A stored file's key and URL: r/<first two characters of its id>/<its id>.<ext>.
        .replace(/\/[0-9a-f]{2}\/(<asset \d+>)/g, "/<xx>/$1")
        // The simulator's signed media links expire a day after the job ends.
        .replace(/\?exp=\d+&sig=[0-9a-f]+$/, "?exp=<exp>&sig=<sig>")
        .replace(/^\d{4}-\d\d-\d\dT[\d:.]+Z$/, "<time>")
    );
  };
  return {
    job: norm(job) as Record<string, unknown>,
    ledger: ledger.map((t) => norm({ ...t, id: null })),
    activity: records.map((r) => norm({ ...r, id: null, durationMs: r.durationMs! >= 0 ? "<ms>" : r.durationMs })),
    events: events.map((e) => norm({ kind: e.kind, ...e.data })) as Record<string, unknown>[],
    assets: files.map(norm),
    webhooks: webhooks.map((w) => ({ source: w.source, status: (w.payload as { status?: string }).status })),
    providerRequests: (await simulatorRequestsFor(id)).length,
  };
}

type Rows = Awaited<ReturnType<typeof rowsOf>>;

/**
 * What the route wrote, not the driver: `/run` makes a sync job of operation `run` that names the
 * process running it inline (`runner`, for the hand-over if it dies); `/queue` a queued job of
 * operation `queue`, carried by no process. The activity row repeats the operation.
 */
function asQueued(rows: Rows): Rows {
  return {
    ...rows,
    job: { ...rows.job, mode: "queue", operation: "queue", runner: null },
    activity: rows.activity.map((r) => ({ ...(r as object), operation: "queue" })),
  };
}

/**
 * What only the status-checking driver sees. It is the one that asks the provider for the job's
 * status after the job started (the inline run asks for the result only; the webhook ended the job
 * before any check found it running), so it alone records the move to `in_progress` (status event,
 * `running` progress, `started_at`, the queue position cleared) and the provider's logs, between
 * `submitted` and `storing`.
 */
function withCheckedStart(rows: Rows, logs: Record<string, unknown>[]): Rows {
  const submitted = rows.events.findIndex((e) => e.stage === "submitted");
  return {
    ...rows,
    job: { ...rows.job, startedAt: "<time>", queuePosition: null },
    events: [
      ...rows.events.slice(0, submitted + 1),
      { kind: "status", status: "in_progress" },
      { kind: "progress", stage: "running" },
      ...logs,
      ...rows.events.slice(submitted + 1),
    ],
  };
}

/** The simulator's logs of a finished 28-step flux job, as the check records them. */
function simulatorLogs(last: string) {
  const steps = [3, 6, 8, 11, 14, 17, 20, 22, 25, 28].map((n) => `Step ${n}/28`);
  return [`Runner acquired; loading ${FLUX}`, ...steps, last].map((message) => ({ kind: "log", message, timestamp: "<time>" }));
}

const input = { prompt: "a lighthouse at dusk", seed: 7 };

describe("success", () => {
  test("a completed generation writes the same rows whichever driver carries it: inline, the queue's check, the provider's webhook", async () => {
    const inline = await carry("inline", input, "completed");
    const checked = await carry("check", input, "completed");
    const webhook = await carry("webhook", input, "completed");

    // The inline run answered the result; the webhook route answered the job it ended.
    expect(inline.answer.status).toBe(200);
    expect(inline.answer.body).toMatchObject({ request_id: inline.id, seed: 7, images: [{ width: 1024, height: 1024 }] });
    expect(webhook.answer).toMatchObject({
      status: 200,
      body: { ok: true, status: "completed", deduped: false, unmapped: false, assets: { found: 1, uploaded: 1, failed: 0 } },
    });
    // The check's run collected the result itself: its last step, the collect, answered the ending.
    expect(checked.run).toMatchObject({ status: "completed", output: { status: "completed" } });

    const rows = { inline: await rowsOf(inline.id), checked: await rowsOf(checked.id), webhook: await rowsOf(webhook.id) };

    // The rows themselves, read from the inline run.
    const image = { width: 1024, height: 1024, file_name: "0.jpg", file_size: expect.any(Number), content_type: "image/jpeg" };
    expect(rows.inline.job).toMatchObject({
      status: "completed",
      costReservedCredits: FLUX_SQUARE_HD,
      costSettledCredits: FLUX_SQUARE_HD,
      output: { seed: 7, images: [{ ...image, url: "http://localhost:3000/files/r/<xx>/<asset 0>.jpg" }] },
      providerOutput: { seed: 7, images: [{ ...image, url: expect.stringMatching(/^http:\/\/localhost:3000\/sim\/image\//) }] },
      providerRequestId: "<provider-request>",
      submittedAt: "<time>",
      completedAt: "<time>",
      errorCode: null,
      errorMessage: null,
    });
    expect(rows.inline.events).toEqual([
      { kind: "status", status: "queued" },
      { kind: "progress", stage: "queued" },
      { kind: "progress", stage: "submitted" },
      { kind: "progress", stage: "storing" },
      { kind: "status", status: "completed" },
      { kind: "progress", stage: "completed" },
    ]);
    expect(rows.inline.ledger).toEqual([
      expect.objectContaining({
        type: "generation_reserve",
        amount: -FLUX_SQUARE_HD,
        balanceAfter: FUNDS - FLUX_SQUARE_HD,
        idempotencyKey: "reserve:<job>",
        apiKeyId: "<key>",
      }),
    ]);
    expect(rows.inline.activity).toEqual([
      expect.objectContaining({
        operation: "run",
        credits: FLUX_SQUARE_HD,
        status: "completed",
        errorCode: null,
        providerRequestId: "<provider-request>",
      }),
    ]);
    const size = (rows.inline.job.output as { images: { file_size: number }[] }).images[0]!.file_size;
    expect(rows.inline.assets).toEqual([
      expect.objectContaining({
        kind: "result",
        status: "stored",
        contentType: "image/jpeg",
        sizeBytes: size,
        falRequestId: "<provider-request>",
      }),
    ]);
    // Each job went to the provider once; only the webhook's reached /webhooks/provider (the inline
    // run asks for none, the check's was lost on the way).
    expect(rows.inline.providerRequests).toBe(1);
    expect(rows.inline.webhooks).toEqual([]);
    expect(rows.checked.webhooks).toEqual([]);
    expect(rows.webhook.webhooks).toEqual([{ source: "provider", status: "OK" }]);

    // The same rows, each driver against the inline run: only the route's own fields, the view of
    // the start (the status check's, and the webhook's look before it ends the job) and the
    // webhook's receipt differ. (Its receipt in inbound_events, asserted above, is the webhook's own.)
    expect({ ...rows.webhook, webhooks: [] }).toEqual(
      withCheckedStart(asQueued(rows.inline), simulatorLogs("Generation finished; uploading outputs")),
    );
    // The ending clears the queue position and, for a completed job no status check saw start (the
    // inline run and the webhook never ask), sets `started_at` to its submission.
    expect(rows.inline.job).toMatchObject({ startedAt: "<time>", queuePosition: null });
    expect(rows.checked).toEqual(withCheckedStart(asQueued(rows.inline), simulatorLogs("Generation finished; uploading outputs")));
  });
});

describe("failure", () => {
  test("a model failure is refunded once, with the same events and ledger rows, whichever driver ends it", async () => {
    const failing = { prompt: "a lighthouse at dusk [fail:generation]", seed: 7 };
    const inline = await carry("inline", failing, "failed");
    const checked = await carry("check", failing, "failed");
    const webhook = await carry("webhook", failing, "failed");

    const message = "prompt: The model could not generate an output (simulated failure)";
    expect(inline.answer.status).toBe(500);
    expect(inline.answer.body).toMatchObject({
      error: "generation_failed",
      message: `Generation failed: ${message}; the charge was refunded`,
      requestId: inline.id,
    });
    expect(webhook.answer).toMatchObject({
      status: 200,
      body: { ok: true, status: "failed", deduped: false, unmapped: false, assets: { found: 0, uploaded: 0, failed: 0 } },
    });
    expect(checked.run).toMatchObject({ status: "completed", output: { status: "failed" } });

    const rows = { inline: await rowsOf(inline.id), checked: await rowsOf(checked.id), webhook: await rowsOf(webhook.id) };

    expect(rows.inline.job).toMatchObject({
      status: "failed",
      costReservedCredits: FLUX_SQUARE_HD,
      costSettledCredits: 0,
      output: null,
      providerOutput: null,
      providerRequestId: "<provider-request>",
      submittedAt: "<time>",
      completedAt: "<time>",
      errorCode: "generation_failed",
      errorMessage: message,
    });
    expect(rows.inline.events).toEqual([
      { kind: "status", status: "queued" },
      { kind: "progress", stage: "queued" },
      { kind: "progress", stage: "submitted" },
      { kind: "status", status: "failed", error: "generation_failed" },
      { kind: "progress", stage: "failed", message },
    ]);
    // Reserved, then refunded once: the balance is whole again.
    expect(rows.inline.ledger).toEqual([
      expect.objectContaining({ type: "generation_reserve", amount: -FLUX_SQUARE_HD, balanceAfter: FUNDS - FLUX_SQUARE_HD }),
      expect.objectContaining({ type: "generation_refund", amount: FLUX_SQUARE_HD, balanceAfter: FUNDS, idempotencyKey: "refund:<job>" }),
    ]);
    expect(rows.inline.activity).toEqual([
      expect.objectContaining({ operation: "run", credits: 0, status: "failed", errorCode: "generation_failed" }),
    ]);
    expect(rows.inline.assets).toEqual([]);
    expect(rows.inline.providerRequests).toBe(1);
    expect(rows.webhook.webhooks).toEqual([{ source: "provider", status: "ERROR" }]);

    // (Its receipt in inbound_events, asserted above, is the webhook's own.) The webhook's look
    // before the ending records the start and the log as the status check does.
    const failedLogs = simulatorLogs("Error: the model failed to generate an output");
    expect({ ...rows.webhook, webhooks: [] }).toEqual(withCheckedStart(asQueued(rows.inline), failedLogs));
    expect(rows.checked).toEqual(withCheckedStart(asQueued(rows.inline), failedLogs));
  });
});
