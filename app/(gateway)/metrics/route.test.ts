import { Readable } from "node:stream";
import { getMetricsFromStream, type PromMetrics } from "prom2javascript";
import { afterAll, afterEach, beforeAll, describe, expect, test } from "vitest";
import { resetEnv } from "@/lib/core/env";
import { sseResponse } from "@/lib/http/sse";
import { breakerFor, resetBreakers } from "@/lib/provider/circuit-breaker";
import { fundedActor, pathOf } from "@/test/generation";
import { call } from "@/test/http";
import { GET as listModels } from "../models/route";
import { POST as run } from "../run/[...path]/route";
import { GET } from "./route";

const TOKEN = "metrics-token-0123456789abcdef";
const FLUX = "fal-ai/flux/dev";
// 2.25 ₽ per megapixel × 1024×1024 (square_hd) = 2.3593 ₽.
const FLUX_SQUARE_HD = 23_593;

/** A scrape, read by a Prometheus text-format parser (it refuses a malformed line). */
async function scrape(): Promise<PromMetrics> {
  const res = await call(GET, "/metrics", { headers: { authorization: `Bearer ${TOKEN}` } });
  expect(res.status).toBe(200);
  expect(res.headers.get("content-type")).toMatch(/^text\/plain; version=0\.0\.4/);
  // The format allows NaN, which this parser does not read: prom-client writes it for an
  // event-loop figure with no sample since the last scrape (scrapes here are milliseconds apart).
  const nan = res.text.split("\n").filter((line) => line.endsWith(" NaN"));
  expect(nan.every((line) => line.startsWith("nodejs_eventloop_lag_"))).toBe(true);
  return getMetricsFromStream(Readable.from([res.text.replace(/^.* NaN\n/gm, "")]));
}

/** A series' value (a counter or gauge) or count (a histogram); 0 when the series is absent. */
function sample(families: PromMetrics, name: string, labels: Record<string, string> = {}): number {
  const series = (families[name]?.data ?? []) as { labels: Record<string, string>; value?: number; count?: number }[];
  const found = series.find((s) => Object.entries(labels).every(([k, v]) => s.labels[k] === v));
  return found?.value ?? found?.count ?? 0;
}

describe("auth", () => {
  test("404 in the envelope while METRICS_TOKEN is unset, whatever the caller sends", async () => {
    const res = await call(GET, "/metrics", { headers: { authorization: `Bearer ${TOKEN}` } });
    expect(res.status).toBe(404);
    expect(res.body).toEqual({ success: false, error: "not_found", message: "Endpoint not found" });
    expect(res.headers.get("x-request-id")).toBeTruthy();
  });

  describe("with METRICS_TOKEN set", () => {
    beforeAll(() => {
      process.env.METRICS_TOKEN = TOKEN;
      resetEnv();
    });
    afterAll(() => {
      delete process.env.METRICS_TOKEN;
      resetEnv();
    });

    test.each([
      ["no Authorization header", undefined],
      ["a wrong token", `Bearer ${TOKEN.slice(0, -1)}x`],
      ["a longer token", `Bearer ${TOKEN}0`],
      ["the token under another scheme", `Basic ${TOKEN}`],
      ["a bare token", TOKEN],
    ])("401 with %s", async (_, authorization) => {
      const res = await call(GET, "/metrics", { headers: authorization ? { authorization } : {} });
      expect(res.status).toBe(401);
      expect(res.body).toEqual({ success: false, error: "unauthorized", message: expect.stringContaining("metrics token") });
      expect(res.headers.get("www-authenticate")).toBe('Bearer realm="metrics"');
      expect(res.text).not.toContain(TOKEN);
    });
  });
});

describe("success", () => {
  beforeAll(() => {
    process.env.METRICS_TOKEN = TOKEN;
    resetEnv();
  });
  afterAll(() => {
    delete process.env.METRICS_TOKEN;
    resetEnv();
  });
  afterEach(() => resetBreakers());

  test("the Prometheus text parses into every family the gateway exports", async () => {
    const families = await scrape();
    const types = Object.fromEntries(Object.entries(families).map(([name, f]) => [name, f.type]));
    expect(types).toMatchObject({
      gateway_http_requests_total: "counter",
      gateway_http_request_duration_seconds: "histogram",
      gateway_generations_total: "counter",
      gateway_provider_request_duration_seconds: "histogram",
      gateway_provider_circuit_state: "gauge",
      gateway_sse_streams_open: "gauge",
      gateway_jobs_inflight: "gauge",
      gateway_jobs_queue_depth: "gauge",
      gateway_ledger_credits: "gauge",
      process_cpu_user_seconds_total: "counter",
      nodejs_eventloop_lag_seconds: "gauge",
    });
    // Before any provider call, the configured provider's breaker is reported closed.
    expect(sample(families, "gateway_provider_circuit_state", { provider: "local", state: "closed" })).toBe(1);
    const depth = families.gateway_jobs_queue_depth!.data as { labels: Record<string, string> }[];
    expect(depth.map((s) => s.labels.status).sort()).toEqual(["blocked", "queued", "running", "sleeping", "waiting"]);
  });

  test("an API request moves its counter and histogram, labelled by route template", async () => {
    const labels = { route: "/models", method: "GET", status: "200" };
    const before = await scrape();
    expect((await call(listModels, "/models?limit=1")).status).toBe(200);
    const after = await scrape();
    expect(sample(after, "gateway_http_requests_total", labels)).toBe(sample(before, "gateway_http_requests_total", labels) + 1);
    expect(sample(after, "gateway_http_request_duration_seconds", labels)).toBe(
      sample(before, "gateway_http_request_duration_seconds", labels) + 1,
    );
    // The scrape itself is counted under its own route.
    expect(sample(after, "gateway_http_requests_total", { route: "/metrics", status: "200" })).toBeGreaterThan(0);
  });

  test("a sync run counts its generation by model and status, its provider calls and the credits used", async () => {
    const { key } = await fundedActor(100);
    const before = await scrape();
    const res = await call(run, `/run/${FLUX}`, { params: pathOf(FLUX), body: { prompt: "a lighthouse" }, key });
    expect(res.status).toBe(200);
    const after = await scrape();
    const delta = (name: string, labels: Record<string, string> = {}) => sample(after, name, labels) - sample(before, name, labels);
    expect(delta("gateway_generations_total", { model: FLUX, status: "completed" })).toBe(1);
    expect(delta("gateway_http_requests_total", { route: "/run/{modelId}", method: "POST", status: "200" })).toBe(1);
    expect(delta("gateway_provider_request_duration_seconds", { provider: "local", operation: "submit", outcome: "ok" })).toBe(1);
    expect(delta("gateway_ledger_credits", { total: "used" })).toBe(FLUX_SQUARE_HD);
    // The user's 100 ₽ grant was issued before the first scrape.
    expect(delta("gateway_ledger_credits", { total: "issued" })).toBe(0);
    expect(sample(after, "gateway_ledger_credits", { total: "issued" })).toBeGreaterThanOrEqual(1_000_000);
  });

  test("breaker state and open streams are read at scrape time", async () => {
    const breaker = breakerFor("local");
    for (let i = 0; i < 5; i++) breaker.recordFailure();
    let finish!: () => void;
    const res = sseResponse(() => new Promise<void>((resolve) => (finish = resolve)));
    const reader = res.body!.getReader();
    await reader.read(); // the retry hint: the stream is open
    const during = await scrape();
    expect(sample(during, "gateway_provider_circuit_state", { provider: "local", state: "open" })).toBe(1);
    expect(sample(during, "gateway_provider_circuit_state", { provider: "local", state: "closed" })).toBe(0);
    expect(sample(during, "gateway_sse_streams_open")).toBe(1);
    finish();
    while (!(await reader.read()).done);
    expect(sample(await scrape(), "gateway_sse_streams_open")).toBe(0);
  });
});
