import { eq } from "drizzle-orm";
import { describe, expect, test } from "vitest";
import { getDb } from "@/db/client";
import { jobRuns } from "@/db/schema";
import { inngest } from "@/inngest/client";
import { functions as appFunctions } from "@/inngest/functions";
import { matches } from "./expressions";
import { waitMatchValue } from "./match";
import { buildRegistry, UnsupportedFunctionError } from "./registry";
import { startTestExecutor } from "./testing";
import { dueAt, parseDurationMs } from "./time";

const base = { steps: { step: { id: "step", name: "step", runtime: { type: "http", url: "http://x" } } } };

describe("registration", () => {
  test("the app's own functions are all runnable by the embedded executor", async () => {
    const jobs = await startTestExecutor({ functions: appFunctions });
    expect([...jobs.registry.functions.keys()]).toEqual(
      expect.arrayContaining([
        "generation-gateway-prune-job-history",
        "generation-gateway-run-generation",
        "generation-gateway-auto-topup",
        "generation-gateway-low-balance-email",
        "generation-gateway-reconcile-payments",
      ]),
    );
    jobs.uninstall();
  });

  test("server-only options are refused at registration, each named", async () => {
    const throttled = inngest.createFunction(
      { id: "t-throttled", triggers: [{ event: "test/x" }], throttle: { limit: 1, period: "1m" }, rateLimit: { limit: 1, period: "1m" } },
      async () => null,
    );
    const debounced = inngest.createFunction(
      {
        id: "t-debounced",
        triggers: [{ event: "test/x" }],
        debounce: { period: "5s" },
        priority: { run: "1" },
        singleton: { mode: "skip" },
      },
      async () => null,
    );
    const batched = inngest.createFunction(
      { id: "t-batched", triggers: [{ event: "test/x" }], batchEvents: { maxSize: 10, timeout: "5s" }, timeouts: { finish: "1m" } },
      async () => null,
    );
    const error = await startTestExecutor({ functions: [throttled, debounced, batched] }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(UnsupportedFunctionError);
    const problems = (error as UnsupportedFunctionError).problems;
    expect(problems).toEqual(
      expect.arrayContaining([
        "generation-gateway-t-throttled: `throttle` needs an Inngest server",
        "generation-gateway-t-throttled: `rateLimit` needs an Inngest server",
        "generation-gateway-t-debounced: `debounce` needs an Inngest server",
        "generation-gateway-t-debounced: `priority` needs an Inngest server",
        "generation-gateway-t-debounced: `singleton` needs an Inngest server",
        "generation-gateway-t-batched: `batchEvents` needs an Inngest server",
        "generation-gateway-t-batched: `timeouts` needs an Inngest server",
      ]),
    );
    expect((error as Error).message).toContain("INNGEST_EVENT_KEY");
  });

  test("unknown options, bad expressions, bad crons and cron jitter are refused too", () => {
    const configs = [
      { ...base, id: "a", triggers: [{ event: "x", expression: "event.data.n >" }] },
      { ...base, id: "b", triggers: [{ cron: "every day" }] },
      { ...base, id: "c", triggers: [{ cron: "0 * * * *", jitter: "5m" }] },
      { ...base, id: "d", triggers: [{ event: "x" }], someFutureOption: { on: true } },
      { ...base, id: "e", triggers: [{ event: "x" }], concurrency: [{ limit: 1 }, { limit: 2 }, { limit: 3 }] },
    ];
    const error = (() => {
      try {
        buildRegistry(configs);
      } catch (e) {
        return e as UnsupportedFunctionError;
      }
    })();
    expect(error?.problems).toHaveLength(5);
    expect(error?.problems.map((p) => p.split(":")[0])).toEqual(["a", "b", "c", "d", "e"]);
  });

  test("defaults: 3 retries (4 attempts); limits of 0 mean unlimited; TZ-prefixed crons parse", () => {
    const registry = buildRegistry([
      { ...base, id: "f", triggers: [{ cron: "TZ=Europe/Moscow 0 9 * * *" }, { event: "app/*" }], concurrency: 0 },
    ]);
    expect(registry.get("f")).toMatchObject({ maxAttempts: 4, concurrency: [], crons: ["TZ=Europe/Moscow 0 9 * * *"] });
    expect(registry.triggeredBy("app/user.created")).toHaveLength(1);
    expect(registry.triggeredBy("other/user.created")).toHaveLength(0);
  });
});

describe("at run time", () => {
  test("a step the embedded executor cannot run (step.invoke) fails the run with a clear error", async () => {
    const callee = inngest.createFunction({ id: "t-callee", triggers: [{ event: "test/callee" }] }, async () => "hi");
    const caller = inngest.createFunction({ id: "t-caller", triggers: [{ event: "test/caller" }] }, async ({ step }) =>
      step.invoke("call", { function: callee, data: {} }),
    );
    const jobs = await startTestExecutor({ functions: [callee, caller] });
    const { ids } = await inngest.send({ name: "test/caller", data: {} });
    await jobs.drain();
    const db = await getDb();
    const [run] = await db.select().from(jobRuns).where(eq(jobRuns.eventId, ids[0]!));
    expect(run).toMatchObject({
      status: "failed",
      error: {
        name: "UnsupportedByEmbeddedExecutor",
        message: "step.invoke needs an Inngest server; the embedded executor does not run it",
      },
    });
    jobs.uninstall();
  });
});

describe("helpers", () => {
  test.each([
    ["1s", 1000],
    ["1h30m", 5_400_000],
    ["1.5d", 129_600_000],
    ["2w", 1_209_600_000],
    ["250ms", 250],
  ])("the time string %s is %d ms", (text, ms) => {
    expect(parseDurationMs(text)).toBe(ms);
  });

  test("an ISO instant is due at that instant; nonsense is refused", () => {
    expect(dueAt("2030-01-01T00:00:00.000Z", 0)).toBe(Date.parse("2030-01-01T00:00:00Z"));
    expect(() => dueAt("soon", 0)).toThrow();
    expect(() => parseDurationMs("10")).toThrow();
  });

  test("an expression over a missing field does not match (it does not throw)", () => {
    expect(matches("event.data.user == async.data.user", { event: { data: { user: "u" } }, async: { data: {} } })).toBe(false);
    expect(matches("event.data.n > 1", { event: { data: { n: 2 } } })).toBe(true);
    expect(matches(undefined, {})).toBe(true);
  });
});

describe("wait pre-filter", () => {
  test.each([
    ["event.data.id == async.data.id", { data: { id: "x1" } }, "x1"],
    ["async.data.requestId == event.data.id", { data: { id: 7 } }, "7"],
    ["async.data.requestId == 'req_123'", {}, "req_123"],
    ['"req_9" == async.data.requestId', {}, "req_9"],
    ["async.data.n == 42", {}, "42"],
    ["async.data.n > 42", {}, undefined],
    ["event.data.id == async.data.id && async.data.ok", { data: { id: "x" } }, undefined],
  ])("%s with trigger %j pre-filters on %s", (expression, runEvent, expected) => {
    expect(waitMatchValue(expression, runEvent)).toBe(expected);
  });
});
