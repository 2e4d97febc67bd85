import { randomBytes } from "node:crypto";
import canonicalize from "canonicalize";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { resetEnv } from "@/lib/core/env";
import { ManualClock } from "@/lib/jobs/clock";
import type { JobExecutor } from "@/lib/jobs/executor";
import { signBody } from "@/lib/jobs/protocol";
import { startInngestServer } from "@/test/servers/inngest";
import { serveRoutes } from "@/test/servers/inngest-app";
import { HANG_MS } from "@/test/wait";

/**
 * The production path, on loopback: the app configured for an Inngest server (keys + base URL),
 * `inngest.send()` going to the event API, and the server calling the real /api/inngest route over
 * HTTP with signed requests. The server here is test/servers/inngest.ts (the embedded executor in
 * HTTP mode plus Inngest's event, sync and runs APIs).
 */
const eventKey = "test-event-key";
const signingKey = `signkey-test-${randomBytes(32).toString("hex")}`;
const clock = new ManualClock(Date.parse("2030-06-01T12:00:00Z"));
const inngestServer = await startInngestServer({ eventKey, signingKey, clock });

// Configure server mode before the client module is first loaded.
process.env.INNGEST_EVENT_KEY = eventKey;
process.env.INNGEST_SIGNING_KEY = signingKey;
process.env.INNGEST_BASE_URL = inngestServer.url;
resetEnv();
const route = await import("./route");
const { inngest } = await import("@/lib/jobs/client");
const { jobHistoryPruneRequested } = await import("@/lib/jobs/events");
const { waitForEventRun } = await import("@/lib/jobs/results");
const { jobsMode } = await import("@/lib/jobs/mode");

let app: Awaited<ReturnType<typeof serveRoutes>>;
let executor: JobExecutor;

beforeAll(async () => {
  app = await serveRoutes({ "/api/inngest": route });
  executor = await inngestServer.connect(`${app.url}/api/inngest`);
});

afterAll(async () => {
  await app.close();
  await inngestServer.close();
  for (const name of ["INNGEST_EVENT_KEY", "INNGEST_SIGNING_KEY", "INNGEST_BASE_URL"]) delete process.env[name];
  resetEnv();
});

describe("success", () => {
  test("the app is in server mode: inngest.send posts to the event API with the event key", async () => {
    expect(jobsMode()).toEqual({ kind: "server", dev: false });
    const { ids } = await inngest.send(jobHistoryPruneRequested.create({ asOf: clock.now() }));
    expect(ids).toHaveLength(1);
    expect(inngestServer.received.at(-1)).toMatchObject({
      path: `/e/${eventKey}`,
      events: [{ name: "jobs/history.prune.requested", data: { asOf: clock.now() } }],
    });
  });

  test("the server runs a function by calling /api/inngest over HTTP, signed, and the route answers with the SDK protocol", async () => {
    const { ids } = await inngest.send(jobHistoryPruneRequested.create({ asOf: clock.now() }));
    const waiting = waitForEventRun(ids[0]!, { functionId: "prune-job-history", timeoutMs: HANG_MS, pollMs: 20 });
    await executor.drain();
    const result = await waiting;
    expect(result).toMatchObject({ status: "completed", output: { runs: expect.any(Number), events: expect.any(Number) } });
  });

  test("an unsigned PUT syncs the app with the server (out-of-band), reporting its functions and cron", async () => {
    const res = await fetch(`${app.url}/api/inngest`, { method: "PUT" });
    expect(res.status).toBe(200);
    expect(await res.json()).toMatchObject({ modified: true });
    expect(inngestServer.registrations.at(-1)).toMatchObject({
      appName: "generation-gateway",
      url: `${app.url}/api/inngest`,
      functions: expect.arrayContaining([
        expect.objectContaining({
          id: "generation-gateway-prune-job-history",
          triggers: [{ cron: "TZ=UTC 17 * * * *" }, { event: "jobs/history.prune.requested" }],
        }),
        expect.objectContaining({
          id: "generation-gateway-reconcile-payments",
          triggers: [{ cron: "TZ=UTC */10 * * * *" }, { event: "billing/payments.reconcile.requested" }],
        }),
        expect.objectContaining({ id: "generation-gateway-run-generation", triggers: [{ event: "generation/requested" }] }),
      ]),
    });
  });
});

describe("auth", () => {
  // Canonical JSON (RFC 8785), as Inngest signs it: the SDK verifies against its canonical form.
  const body = canonicalize({ event: { name: "x", data: {} }, events: [], steps: {}, ctx: { run_id: "r", attempt: 0 }, version: 2 })!;
  const url = () => `${app.url}/api/inngest?fnId=generation-gateway-prune-job-history&stepId=step`;

  test.each([
    ["no signature", {}],
    ["a signature made with another key", { "x-inngest-signature": signBody(body, `signkey-test-${"ab".repeat(32)}`) }],
    ["an expired signature", { "x-inngest-signature": signBody(body, signingKey, Math.round(Date.now() / 1000) - 3600) }],
  ])("a call with %s is refused with 401 and runs nothing", async (_, headers) => {
    const res = await fetch(url(), { method: "POST", body, headers: { "content-type": "application/json", ...headers } });
    expect(res.status).toBe(401);
    expect(await res.json()).toEqual({ message: "Unauthorized" });
    expect(res.headers.get("x-request-id")).toBeTruthy();
  });

  test("introspection without a signature reveals nothing beyond the 401", async () => {
    const res = await fetch(`${app.url}/api/inngest`);
    expect(res.status).toBe(401);
  });

  test("the same call, signed with the shared key, is accepted", async () => {
    const res = await fetch(url(), {
      method: "POST",
      body,
      headers: { "content-type": "application/json", "x-inngest-signature": signBody(body, signingKey) },
    });
    expect(res.status).not.toBe(401);
    expect(res.headers.get("x-inngest-sdk")).toMatch(/^inngest-js:v4\./);
  });
});
