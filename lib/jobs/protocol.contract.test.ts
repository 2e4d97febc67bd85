import { createHash } from "node:crypto";
import { readFileSync } from "node:fs";
import { NonRetriableError, RetryAfterError } from "inngest";
import { serve } from "inngest/next";
import { describe, expect, test } from "vitest";
import type { JobEvent, MemoizedStep } from "@/db/schema";
import { inngest } from "@/lib/jobs/client";
import { callFunction, handlerTransport, signBody, syncFunctions, type CallOutcome } from "./protocol";

/**
 * The contract between the embedded executor and the Inngest SDK it drives: every request shape,
 * op, status and header the executor relies on, asserted against the installed SDK. If an
 * `inngest` upgrade changes any of them, this file fails before the executor misbehaves.
 */
const hash = (id: string) => createHash("sha1").update(id).digest("hex");

const shapes = inngest.createFunction(
  {
    id: "c-shapes",
    retries: 2,
    triggers: [{ event: "contract/go", if: "event.data.n > 0" }],
    cancelOn: [{ event: "contract/stop", match: "data.k", timeout: "2h" }],
    concurrency: [{ key: "event.data.k", limit: 1 }, { limit: 5 }],
    idempotency: "event.data.k",
    onFailure: async () => "handled",
  },
  async ({ event, step }) => {
    const a = await step.run("a", () => ({ v: 1 }));
    await step.sleep("nap", "1h");
    await step.sleepUntil("until", new Date("2030-01-01T00:00:00Z"));
    const reply = await step.waitForEvent("reply", { event: "contract/reply", timeout: "1d", match: "data.k" });
    const [b, c] = await Promise.all([step.run("b", () => 2), step.run("c", () => 3)]);
    let caught = "";
    try {
      await step.run("d", () => {
        throw new Error("d failed");
      });
    } catch (err) {
      caught = (err as Error).message;
    }
    return { a, reply: reply?.data ?? null, b, c, caught, k: event.data.k };
  },
);

const failing = inngest.createFunction({ id: "c-failing", retries: 2, triggers: [{ event: "contract/fail" }] }, async ({ event, step }) => {
  if (event.data.mode === "body") throw new Error("body broke");
  if (event.data.mode === "fatal") throw new NonRetriableError("fatal");
  await step.run("s", () => {
    if (event.data.mode === "later") throw new RetryAfterError("later", "30s");
    throw new Error("step broke");
  });
});

const handler = serve({ client: inngest, functions: [shapes, failing], enableUnauthedSync: false });
const transport = handlerTransport(handler, inngest.signingKey!);
const event: JobEvent = { id: "evt-1", name: "contract/go", data: { n: 1, k: "u1" }, ts: 1_700_000_000_000 };
const now = Date.now();

function call(
  functionId: string,
  steps: Record<string, MemoizedStep>,
  opts: { attempt?: number; evt?: JobEvent; planOnly?: boolean } = {},
) {
  return callFunction(
    transport,
    {
      functionId: `generation-gateway-${functionId}`,
      stepId: "step",
      event: opts.evt ?? event,
      steps,
      ctx: {
        runId: "run-1",
        attempt: opts.attempt ?? 0,
        maxAttempts: 3,
        stack: Object.keys(steps),
        planOnly: opts.planOnly,
      },
    },
    now,
  );
}

const ops = (outcome: CallOutcome) => {
  if (outcome.kind !== "ops") throw new Error(`expected ops, got ${JSON.stringify(outcome)}`);
  return outcome.ops;
};
const data = (value: unknown): MemoizedStep => ({ type: "data", data: value });

describe("the SDK protocol the executor relies on", () => {
  test("inngest is pinned exactly, and this is the version the contract was checked against", () => {
    const pkg = JSON.parse(readFileSync("package.json", "utf8"));
    const installed = JSON.parse(readFileSync("node_modules/inngest/package.json", "utf8"));
    expect(pkg.dependencies.inngest).toBe("4.24.0");
    expect(installed.version).toBe(pkg.dependencies.inngest);
  });

  test("an in-band sync reports triggers, retries and concurrency, and cancelOn/idempotency under the keys the executor refuses", async () => {
    const functions = (await syncFunctions(transport)) as Record<string, unknown>[];
    const main = functions.find((f) => f.id === "generation-gateway-c-shapes");
    expect(main).toMatchObject({
      triggers: [{ event: "contract/go", expression: "event.data.n > 0" }],
      steps: { step: { id: "step", retries: { attempts: 2 } } },
      cancel: [{ event: "contract/stop", if: "event.data.k == async.data.k", timeout: "2h" }],
      concurrency: [{ key: "event.data.k", limit: 1 }, { limit: 5 }],
      idempotency: "event.data.k",
    });
    expect(functions.find((f) => f.id === "generation-gateway-c-shapes-failure")).toMatchObject({
      triggers: [{ event: "inngest/function.failed", expression: "event.data.function_id == 'generation-gateway-c-shapes'" }],
    });
  });

  test("step ids are SHA-1 hashes; a lone step.run executes inline as StepRun", async () => {
    const out = await call("c-shapes", {});
    expect(ops(out)).toEqual([expect.objectContaining({ id: hash("a"), op: "StepRun", displayName: "a", data: { v: 1 } })]);
  });

  test("a look-ahead call (planOnly) reports the next step as StepPlanned without running it, and a wait as a wait", async () => {
    expect(ops(await call("c-shapes", {}, { planOnly: true }))).toEqual([expect.objectContaining({ id: hash("a"), op: "StepPlanned" })]);
    expect(ops(await call("c-failing", {}, { planOnly: true, evt: { ...event, name: "contract/fail", data: { mode: "step" } } }))).toEqual([
      expect.objectContaining({ id: hash("s"), op: "StepPlanned" }),
    ]);
    const sleeps = { [hash("a")]: data({ v: 1 }), [hash("nap")]: data(null), [hash("until")]: data(null) };
    expect(ops(await call("c-shapes", sleeps, { planOnly: true }))).toEqual([
      expect.objectContaining({ id: hash("reply"), op: "WaitForEvent", name: "contract/reply" }),
    ]);
  });

  test("sleep and sleepUntil report Sleep (the executor refuses it by this name)", async () => {
    expect(ops(await call("c-shapes", { [hash("a")]: data({ v: 1 }) }))).toEqual([
      expect.objectContaining({ id: hash("nap"), op: "Sleep", name: "1h" }),
    ]);
    expect(ops(await call("c-shapes", { [hash("a")]: data({ v: 1 }), [hash("nap")]: data(null) }))).toEqual([
      expect.objectContaining({ id: hash("until"), op: "Sleep", name: "2030-01-01T00:00:00.000Z" }),
    ]);
  });

  const beforeReply = { [hash("a")]: data({ v: 1 }), [hash("nap")]: data(null), [hash("until")]: data(null) };
  const afterReply = { ...beforeReply, [hash("reply")]: data({ name: "contract/reply", data: { k: "u1", ok: true } }) };

  test("waitForEvent reports the event in `name` and timeout/if in `opts` (`match` compiles to an equality); an event resumes it", async () => {
    expect(ops(await call("c-shapes", beforeReply))).toEqual([
      expect.objectContaining({
        id: hash("reply"),
        op: "WaitForEvent",
        name: "contract/reply",
        opts: { timeout: "1d", if: "event.data.k == async.data.k" },
      }),
    ]);
  });

  test("parallel steps report one StepPlanned per step (the executor refuses them)", async () => {
    expect(ops(await call("c-shapes", afterReply))).toEqual([
      expect.objectContaining({ id: hash("b"), op: "StepPlanned" }),
      expect.objectContaining({ id: hash("c"), op: "StepPlanned" }),
    ]);
  });

  test("a step failing on its last attempt is StepFailed; memoised as an error, the function can catch it", async () => {
    const both = { ...afterReply, [hash("b")]: data(2), [hash("c")]: data(3) };
    const failedD = ops(await call("c-shapes", both, { attempt: 2 }));
    expect(failedD).toEqual([
      expect.objectContaining({ id: hash("d"), op: "StepFailed", error: expect.objectContaining({ message: "d failed" }) }),
    ]);
    const done = await call("c-shapes", { ...both, [hash("d")]: { type: "error", error: failedD[0]!.error } });
    expect(done).toEqual({
      kind: "complete",
      output: { a: { v: 1 }, reply: { k: "u1", ok: true }, b: 2, c: 3, caught: "d failed", k: "u1" },
    });
  });

  test("a throwing step is StepError (X-Inngest-No-Retry: false) before its last attempt and StepFailed on it", async () => {
    const evt = { ...event, name: "contract/fail", data: { mode: "step" } };
    const first = await call("c-failing", {}, { evt, attempt: 0 });
    expect(ops(first)).toEqual([
      expect.objectContaining({ id: hash("s"), op: "StepError", error: expect.objectContaining({ name: "Error", message: "step broke" }) }),
    ]);
    const last = await call("c-failing", {}, { evt, attempt: 2 });
    expect(ops(last)).toEqual([expect.objectContaining({ id: hash("s"), op: "StepFailed" })]);
  });

  test("RetryAfterError sets Retry-After on its StepError", async () => {
    const out = await call("c-failing", {}, { evt: { ...event, name: "contract/fail", data: { mode: "later" } } });
    expect(out).toMatchObject({ kind: "ops", retryAfterMs: expect.any(Number), ops: [{ op: "StepError" }] });
    expect((out as { retryAfterMs: number }).retryAfterMs).toBeGreaterThan(25_000);
    expect((out as { retryAfterMs: number }).retryAfterMs).toBeLessThanOrEqual(30_000);
  });

  test("a function-level error is 500 retriable; NonRetriableError is 400 with X-Inngest-No-Retry: true", async () => {
    expect(await call("c-failing", {}, { evt: { ...event, name: "contract/fail", data: { mode: "body" } } })).toMatchObject({
      kind: "error",
      status: 500,
      retriable: true,
      error: { name: "Error", message: "body broke" },
    });
    expect(await call("c-failing", {}, { evt: { ...event, name: "contract/fail", data: { mode: "fatal" } } })).toMatchObject({
      kind: "error",
      status: 400,
      retriable: false,
      error: { name: "NonRetriableError", message: "fatal" },
    });
  });

  test("the failure handler takes inngest/function.failed and gets the error", async () => {
    const failed: JobEvent = {
      id: "f-1",
      name: "inngest/function.failed",
      data: { function_id: "generation-gateway-c-shapes", run_id: "run-0", error: { name: "Error", message: "x" }, event },
      ts: now,
    };
    expect(await call("c-shapes-failure", {}, { evt: failed })).toEqual({ kind: "complete", output: "handled" });
  });

  test("unsigned, wrongly signed and stale calls are refused with 401", async () => {
    const body = JSON.stringify({ event, events: [event], steps: {}, ctx: { run_id: "r", attempt: 0 }, version: 2 });
    const url = `${transport.url}?fnId=generation-gateway-c-shapes&stepId=step`;
    const send = (headers: Record<string, string>) =>
      transport.send(new Request(url, { method: "POST", body, headers: { "content-type": "application/json", ...headers } }));
    expect((await send({})).status).toBe(401);
    expect((await send({ "x-inngest-signature": signBody(body, "signkey-prod-00ff") })).status).toBe(401);
    const stale = Math.round(Date.now() / 1000) - 600;
    expect((await send({ "x-inngest-signature": signBody(body, inngest.signingKey!, stale) })).status).toBe(401);
    const put = await transport.send(
      new Request(transport.url, { method: "PUT", body: "{}", headers: { "x-inngest-sync-kind": "in_band" } }),
    );
    expect(put.status).toBe(401);
  });
});
