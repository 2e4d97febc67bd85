import { afterEach, describe, expect, test } from "vitest";
import { parseEnv, resetEnv } from "@/lib/core/env";
import { behaviourOf } from "./behaviour";
import type { OutputKind } from "./models";
import { drawFailure, drawLatencyMs, LATENCY_BOUNDS, seededRandom, simulatorSettings, type SimulatorSettings } from "./latency-profile";

const realistic: SimulatorSettings = { profile: "realistic", latencyMs: 0, latencyScale: 1, errorRate: 0 };
const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;

afterEach(() => {
  delete process.env.LOCAL_PROVIDER_MODELS;
  resetEnv();
});

describe("latency distribution", () => {
  test.each(Object.keys(LATENCY_BOUNDS) as OutputKind[])(
    "%s: every draw within its bounds, centred on their geometric mean, spread across them",
    (kind) => {
      const { minMs, maxMs } = LATENCY_BOUNDS[kind];
      const random = seededRandom(17);
      const draws = Array.from({ length: 4000 }, () => drawLatencyMs(kind, random));
      expect(Math.min(...draws)).toBeGreaterThanOrEqual(minMs);
      expect(Math.max(...draws)).toBeLessThanOrEqual(maxMs);
      const centre = Math.sqrt(minMs * maxMs);
      expect(median(draws)).toBeGreaterThan(centre * 0.9);
      expect(median(draws)).toBeLessThan(centre * 1.1);
      // A tail on both sides: some requests are quick, some slow (not a constant).
      const range = maxMs - minMs;
      expect(draws.some((d) => d < minMs + range * 0.15)).toBe(true);
      expect(draws.some((d) => d > maxMs - range * 0.4)).toBe(true);
    },
  );

  test("the scale multiplies the draw; the same seed gives the same latencies", () => {
    const a = Array.from(
      { length: 50 },
      (
        (r) => () =>
          drawLatencyMs("image", r)
      )(seededRandom(3)),
    );
    const b = Array.from(
      { length: 50 },
      (
        (r) => () =>
          drawLatencyMs("image", r, 0.1)
      )(seededRandom(3)),
    );
    b.forEach((ms, i) => expect(Math.abs(ms - a[i]! * 0.1)).toBeLessThanOrEqual(1));
    expect(
      Array.from(
        { length: 50 },
        (
          (r) => () =>
            drawLatencyMs("image", r)
        )(seededRandom(3)),
      ),
    ).toEqual(a);
    expect(Math.min(...b)).toBeGreaterThanOrEqual(100);
    expect(Math.max(...b)).toBeLessThanOrEqual(400);
  });

  test("video takes tens of seconds, images seconds, embeddings well under one", () => {
    const r = seededRandom(9);
    const m = (kind: OutputKind) => median(Array.from({ length: 500 }, () => drawLatencyMs(kind, r)));
    expect(m("embedding")).toBeLessThan(1_000);
    expect(m("image")).toBeGreaterThan(1_000);
    expect(m("image")).toBeLessThan(4_000);
    expect(m("speech")).toBeGreaterThan(m("image"));
    expect(m("video")).toBeGreaterThan(20_000);
  });
});

describe("error rate", () => {
  test("failures come at the configured rate: half 429s, half 503s on submit, a quarter as many on the first result fetch", () => {
    const random = seededRandom(42);
    const counts = { rate_limit: 0, provider: 0, result: 0, none: 0 };
    const n = 100_000;
    for (let i = 0; i < n; i++) {
      const f = drawFailure(0.02, random);
      counts[f ? (f.mode as "rate_limit" | "provider" | "result") : "none"]++;
      if (f?.mode === "result") expect(f.times).toBe(1);
      if (f?.mode === "rate_limit" || f?.mode === "provider") expect(f.times).toBeNull();
    }
    expect(counts.rate_limit / n).toBeGreaterThan(0.008);
    expect(counts.rate_limit / n).toBeLessThan(0.012);
    expect(counts.provider / n).toBeGreaterThan(0.008);
    expect(counts.provider / n).toBeLessThan(0.012);
    expect(counts.result / n).toBeGreaterThan(0.0035);
    expect(counts.result / n).toBeLessThan(0.0065);
  });

  test("a rate of 0 never fails; a rate of 1 fails every submit", () => {
    const random = seededRandom(1);
    for (let i = 0; i < 1000; i++) expect(drawFailure(0, random)).toBeNull();
    for (let i = 0; i < 1000; i++) expect(["rate_limit", "provider"]).toContain(drawFailure(1, random)?.mode);
  });
});

describe("settings", () => {
  test("instant with no failures by default; realistic fails 2% unless the rate is set", () => {
    expect(simulatorSettings(parseEnv({}))).toEqual({ profile: "instant", latencyMs: 0, latencyScale: 1, errorRate: 0 });
    expect(simulatorSettings(parseEnv({ LOCAL_PROVIDER_PROFILE: "realistic" }))).toMatchObject({ profile: "realistic", errorRate: 0.02 });
    expect(
      simulatorSettings(
        parseEnv({ LOCAL_PROVIDER_PROFILE: "realistic", LOCAL_PROVIDER_ERROR_RATE: "0", LOCAL_PROVIDER_LATENCY_SCALE: "0.1" }),
      ),
    ).toMatchObject({
      errorRate: 0,
      latencyScale: 0.1,
    });
    expect(simulatorSettings(parseEnv({ LOCAL_PROVIDER_ERROR_RATE: "0.5" }))).toMatchObject({ profile: "instant", errorRate: 0.5 });
    expect(() => parseEnv({ LOCAL_PROVIDER_PROFILE: "slow" })).toThrow(/LOCAL_PROVIDER_PROFILE/);
    expect(() => parseEnv({ LOCAL_PROVIDER_ERROR_RATE: "2" })).toThrow(/LOCAL_PROVIDER_ERROR_RATE/);
  });
});

describe("precedence", () => {
  test("the profile draws by the kind of output: the category, else the endpoint id", () => {
    const random = seededRandom(5);
    const of = (id: string, category?: string) => behaviourOf(id, { prompt: "p" }, { category, settings: realistic, random }).latencyMs;
    for (let i = 0; i < 20; i++) {
      expect(of("fal-ai/flux/dev")).toBeLessThanOrEqual(4_000);
      expect(of("acme/anything", "text-to-video")).toBeGreaterThanOrEqual(20_000);
      expect(of("fal-ai/kling-video/v2.1/standard/text-to-video")).toBeGreaterThanOrEqual(20_000);
      expect(of("fal-ai/text-embedding")).toBeLessThan(1_000);
    }
  });

  test("a marker may name its simulator: the others ignore it; [queue:N] delays the start", () => {
    const prompt = { prompt: "x [fail@fal:provider] [queue@fal:60000] [latency@replicate:700] [latency:300]" };
    const none = { settings: { ...realistic, profile: "instant" as const }, random: seededRandom(3) };
    expect(behaviourOf("m", prompt, { ...none, simulator: "fal" })).toEqual({
      latencyMs: 300,
      failure: { mode: "provider", times: null },
      startDelayMs: 60_000,
    });
    expect(behaviourOf("m", prompt, { ...none, simulator: "replicate" })).toEqual({ latencyMs: 700, failure: null });
    expect(behaviourOf("m", prompt, none)).toEqual({ latencyMs: 300, failure: null });
  });

  test("markers and LOCAL_PROVIDER_MODELS win over the profile; a latency marker leaves the failure draw", () => {
    process.env.LOCAL_PROVIDER_MODELS = JSON.stringify({ "acme/fixed": { latencyMs: 123 } });
    resetEnv();
    const always = { ...realistic, errorRate: 1 };
    const random = seededRandom(8);
    expect(behaviourOf("fal-ai/flux/dev", { prompt: "x [latency:2500]" }, { settings: realistic, random })).toEqual({
      latencyMs: 2500,
      failure: null,
    });
    expect(behaviourOf("acme/fixed", { prompt: "x" }, { settings: realistic, random }).latencyMs).toBe(123);
    expect(behaviourOf("fal-ai/flux/dev", { prompt: "x [fail:generation]" }, { settings: always, random }).failure).toEqual({
      mode: "generation",
      errorType: null,
    });
    expect(behaviourOf("fal-ai/flux/dev", { prompt: "x [latency:10]" }, { settings: always, random }).failure?.mode).toMatch(
      /^(rate_limit|provider)$/,
    );
    // The instant profile keeps LOCAL_PROVIDER_LATENCY_MS and draws nothing.
    expect(
      behaviourOf("fal-ai/flux/dev", { prompt: "x" }, { settings: { ...realistic, profile: "instant", latencyMs: 700 }, random }),
    ).toEqual({
      latencyMs: 700,
      failure: null,
    });
  });
});
