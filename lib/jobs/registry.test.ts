import { eq } from "drizzle-orm";
import type { InngestFunction } from "inngest";
import { describe, expect, test } from "vitest";
import { getDb } from "@/db/client";
import { jobRuns } from "@/db/schema";
import { inngest } from "@/lib/jobs/client";
import { functions as appFunctions } from "@/inngest/functions";
import { holds, parseWaitIf, waitMatchValue } from "./expression";
import { buildRegistry, UnsupportedFunctionError } from "./registry";
import { startTestExecutor } from "./testing";
import { dueAt, parseDurationMs } from "./time";

const base = { steps: { step: { id: "step", name: "step", runtime: { type: "http", url: "http://x" } } } };

async function refusal(functions: InngestFunction.Any[]) {
  const error = await startTestExecutor({ functions }).catch((e: unknown) => e);
  expect(error).toBeInstanceOf(UnsupportedFunctionError);
  return error as UnsupportedFunctionError;
}

describe("registration", () => {
  test("the app's own functions are all runnable by the embedded executor", async () => {
    const jobs = await startTestExecutor({ functions: appFunctions });
    expect([...jobs.registry.functions.keys()].sort()).toEqual(
      [
        "auto-topup",
        "deliver-callback",
        "deliver-callback-failure",
        "low-balance-email",
        "prune-idempotency-keys",
        "prune-job-history",
        "prune-rate-limit-windows",
        "reconcile-payments",
        "redrive-generations",
        "run-generation",
        "run-generation-failure",
      ].map((id) => `generation-gateway-${id}`),
    );
    jobs.uninstall();
  });

  test("cancelOn is taken in the forms it reproduces (`match`, a wait-form `if`, none); a timeout, another `if` or a system event is refused", async () => {
    const registry = buildRegistry([
      { ...base, id: "m", triggers: [{ event: "x" }], cancel: [{ event: "y", if: "event.data.k == async.data.k" }, { event: "z" }] },
      { ...base, id: "l", triggers: [{ event: "x" }], cancel: [{ event: "y", if: 'async.data.k == "v"' }] },
    ]);
    expect(registry.cancelledBy("y").map(({ fn, rule }) => [fn.id, rule.stepId, rule.expression])).toEqual([
      ["m", "cancel:m:0", "event.data.k == async.data.k"],
      ["l", "cancel:l:0", 'async.data.k == "v"'],
    ]);
    expect(registry.cancelledBy("z").map(({ fn, rule }) => [fn.id, rule.stepId, rule.expression])).toEqual([["m", "cancel:m:1", null]]);
    const cancellable = inngest.createFunction(
      {
        id: "t-cancellable",
        triggers: [{ event: "test/x" }],
        cancelOn: [
          { event: "test/cancel", match: "data.key", timeout: "1h" },
          { event: "test/cancel", if: "event.data.n > async.data.n" },
          { event: "inngest/function.finished" },
        ],
      },
      async () => null,
    );
    const error = await refusal([cancellable]);
    expect(error.problems).toEqual([
      "generation-gateway-t-cancellable: cancelOn `timeout` is not supported by the embedded executor",
      'generation-gateway-t-cancellable: the cancelOn `if` "event.data.n > async.data.n" is not supported (only `event.<path> == async.<path>`, what `match` compiles to, or `async.<path> == "<literal>"`)',
      'generation-gateway-t-cancellable: cancelOn "inngest/function.finished" is not supported (only an app event by name)',
    ]);
    expect(error.message).toContain("INNGEST_EVENT_KEY");
  });

  test("every flow-control option it does not reproduce is refused, each named", async () => {
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
    const once = inngest.createFunction(
      { id: "t-once", idempotency: "event.data.orderId", triggers: [{ event: "test/x" }] },
      async () => null,
    );
    const error = await refusal([throttled, debounced, batched, once]);
    const named = error.problems.map((p) => p.replace(/ is not supported.*/, ""));
    expect(named.sort()).toEqual(
      [
        "generation-gateway-t-throttled: `throttle`",
        "generation-gateway-t-throttled: `rateLimit`",
        "generation-gateway-t-debounced: `debounce`",
        "generation-gateway-t-debounced: `priority`",
        "generation-gateway-t-debounced: `singleton`",
        "generation-gateway-t-batched: `batchEvents`",
        "generation-gateway-t-batched: `timeouts`",
        "generation-gateway-t-once: `idempotency`",
      ].sort(),
    );
  });

  test("expressions other than the narrow forms are refused: trigger `if`, concurrency keys, wildcards, scopes", async () => {
    const filtered = inngest.createFunction(
      { id: "t-filtered", triggers: [{ event: "test/x", if: "event.data.n > 1" }] },
      async () => null,
    );
    const keyed = inngest.createFunction(
      { id: "t-keyed", triggers: [{ event: "test/x" }], concurrency: { key: "event.data.a + event.data.b", limit: 1 } },
      async () => null,
    );
    const wide = inngest.createFunction(
      { id: "t-wide", triggers: [{ event: "test/*" }], concurrency: { scope: "env", key: '"shared"', limit: 1 } },
      async () => null,
    );
    const two = inngest.createFunction(
      { id: "t-two", triggers: [{ event: "test/x" }], concurrency: [{ limit: 1, key: "event.data.a" }, { limit: 5 }] },
      async () => null,
    );
    const error = await refusal([filtered, keyed, wide, two]);
    expect(error.problems).toEqual([
      "generation-gateway-t-filtered: the trigger `if` \"event.data.n > 1\" is not supported (only `event.<path> == '<literal>'`)",
      'generation-gateway-t-keyed: the concurrency key "event.data.a + event.data.b" is not supported (only `event.<path>`)',
      'generation-gateway-t-wide: the wildcard trigger "test/*" is not supported by the embedded executor',
      "generation-gateway-t-wide: concurrency scope `env` is not supported (only the function's own runs)",
      'generation-gateway-t-wide: the concurrency key "\\"shared\\"" is not supported (only `event.<path>`)',
      "generation-gateway-t-two: more than one concurrency limit is not supported by the embedded executor",
    ]);
  });

  test("unknown options, bad crons and cron jitter are refused too", () => {
    const configs = [
      { ...base, id: "b", triggers: [{ cron: "every day" }] },
      { ...base, id: "c", triggers: [{ cron: "0 * * * *", jitter: "5m" }] },
      { ...base, id: "d", triggers: [{ event: "x" }], someFutureOption: { on: true } },
    ];
    const error = (() => {
      try {
        buildRegistry(configs);
      } catch (e) {
        return e as UnsupportedFunctionError;
      }
    })();
    expect(error?.problems.map((p) => p.split(":")[0])).toEqual(["b", "c", "d"]);
  });

  test("defaults: 3 retries (4 attempts); a limit of 0 means unlimited; TZ-prefixed crons parse", () => {
    const registry = buildRegistry([
      { ...base, id: "f", triggers: [{ cron: "TZ=Europe/Moscow 0 9 * * *" }, { event: "app/x" }], concurrency: 0 },
    ]);
    expect(registry.get("f")).toMatchObject({ maxAttempts: 4, concurrency: undefined, crons: ["TZ=Europe/Moscow 0 9 * * *"] });
    expect(registry.triggeredBy("app/x")).toHaveLength(1);
    expect(registry.triggeredBy("app/y")).toHaveLength(0);
  });
});

describe("at run time", () => {
  // What only shows when the function runs: it fails with an error naming the feature.
  const callee = inngest.createFunction({ id: "t-callee", triggers: [{ event: "test/callee" }] }, async () => "hi");
  const refused = [
    ["step.invoke", async ({ step }: any) => step.invoke("call", { function: callee, data: {} }), "step.invoke needs an Inngest server"],
    ["step.sleep", async ({ step }: any) => step.sleep("nap", "1h"), "step.sleep / step.sleepUntil needs an Inngest server"],
    [
      "step.sleepUntil",
      async ({ step }: any) => step.sleepUntil("nap", new Date(Date.now() + 3_600_000)),
      "step.sleep / step.sleepUntil needs",
    ],
    [
      "parallel steps",
      async ({ step }: any) => Promise.all([step.run("x", () => 1), step.run("y", () => 2)]),
      "parallel steps needs an Inngest server",
    ],
    [
      "a waitForEvent `if` beyond the narrow forms",
      async ({ step }: any) => step.waitForEvent("w", { event: "test/y", timeout: "1h", if: "async.data.n > 1" }),
      'step.waitForEvent "w": the `if` "async.data.n > 1" is not supported by the embedded executor',
    ],
  ] as const;

  test.each(refused)("%s fails the run with a clear error", async (what, body, message) => {
    const id = `t-refused-${refused.findIndex((r) => r[0] === what)}`;
    const fn = inngest.createFunction({ id, retries: 0, triggers: [{ event: `test/${id}` }] }, body as any);
    const jobs = await startTestExecutor({ functions: [callee, fn] });
    const { ids } = await inngest.send({ name: `test/${id}`, data: {} });
    await jobs.drain();
    const db = await getDb();
    const [run] = await db.select().from(jobRuns).where(eq(jobRuns.eventId, ids[0]!));
    expect(run).toMatchObject({ status: "failed", error: { name: "UnsupportedByEmbeddedExecutor" } });
    expect((run!.error as { message: string }).message).toContain(message);
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
});

describe("wait `if`", () => {
  test.each([
    ['async.data.generationId == "gen_1"', { data: {} }, { data: { generationId: "gen_1" } }, true, "gen_1"],
    ['async.data.generationId == "gen_1"', { data: {} }, { data: { generationId: "gen_2" } }, false, "gen_1"],
    ["'req_9' == async.data.requestId", {}, { data: { requestId: "req_9" } }, true, "req_9"],
    ["event.data.id == async.data.id", { data: { id: 7 } }, { data: { id: 7 } }, true, "7"],
    ["event.data.id == async.data.id", { data: { id: 7 } }, { data: { id: "7" } }, false, "7"],
    ["event.data.id == async.data.id", { data: {} }, { data: {} }, false, undefined],
  ])("%s with trigger %j and event %j: %s, pre-filtered on %s", (expression, runEvent, incoming, expected, prefilter) => {
    const eq = parseWaitIf(expression)!;
    expect(holds(eq, { event: runEvent, async: incoming })).toBe(expected);
    expect(waitMatchValue(eq, runEvent)).toBe(prefilter);
  });

  test.each([
    "async.data.n > 42",
    "event.data.id == async.data.id && async.data.ok",
    "async.data.a == async.data.b",
    "event.data.a == 'x'",
    'async.data.x == "a\\"b"',
  ])("%s is not one of the forms evaluated", (expression) => expect(parseWaitIf(expression)).toBeUndefined());
});
