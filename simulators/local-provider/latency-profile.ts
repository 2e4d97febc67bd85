import { env, type Env } from "@/lib/core/env";
import type { Failure } from "./behaviour";
import type { OutputKind } from "./models";
import { mulberry32 } from "@/lib/catalog/example-media/random";

/**
 * How long simulated requests take and how often they fail when nothing else says so (no marker,
 * no LOCAL_PROVIDER_MODELS entry). `instant` (the default, which unit tests rely on) gives every
 * request LOCAL_PROVIDER_LATENCY_MS; `realistic` draws a latency per request from the bounds of its
 * kind of output, like fal's models take (docs/providers.md), scaled by LOCAL_PROVIDER_LATENCY_SCALE.
 */
export type SimulatorSettings = {
  profile: "instant" | "realistic";
  /** The instant profile's latency. */
  latencyMs: number;
  /** Multiplies the realistic profile's draws. */
  latencyScale: number;
  /** Probability that a submit attempt fails transiently (a quarter of it again: the first result fetch). */
  errorRate: number;
};

export const DEFAULT_REALISTIC_ERROR_RATE = 0.02;

export function simulatorSettings(e: Env = env()): SimulatorSettings {
  return {
    profile: e.LOCAL_PROVIDER_PROFILE,
    latencyMs: e.LOCAL_PROVIDER_LATENCY_MS,
    latencyScale: e.LOCAL_PROVIDER_LATENCY_SCALE,
    errorRate: e.LOCAL_PROVIDER_ERROR_RATE ?? (e.LOCAL_PROVIDER_PROFILE === "realistic" ? DEFAULT_REALISTIC_ERROR_RATE : 0),
  };
}

/** Where the realistic profile's latencies fall (queue wait included), by kind of output. */
export const LATENCY_BOUNDS: Record<OutputKind, { minMs: number; maxMs: number }> = {
  image: { minMs: 1_000, maxMs: 4_000 },
  video: { minMs: 20_000, maxMs: 60_000 },
  speech: { minMs: 2_000, maxMs: 10_000 },
  audio: { minMs: 2_000, maxMs: 10_000 },
  transcription: { minMs: 1_000, maxMs: 6_000 },
  embedding: { minMs: 100, maxMs: 800 },
  voice: { minMs: 3_000, maxMs: 15_000 },
  mesh: { minMs: 10_000, maxMs: 40_000 },
};

/**
 * A log-normal draw within the kind's bounds: the median is their geometric mean and they sit two
 * standard deviations out, so most requests take about the typical time and a few are slow, as
 * with a real provider. Draws outside the bounds are redrawn (then clamped, so it always ends).
 */
export function drawLatencyMs(kind: OutputKind, random: () => number, scale = 1): number {
  const { minMs, maxMs } = LATENCY_BOUNDS[kind];
  const mu = (Math.log(minMs) + Math.log(maxMs)) / 2;
  const sigma = (Math.log(maxMs) - Math.log(minMs)) / 4;
  let ms = Math.exp(mu);
  for (let i = 0; i < 8; i++) {
    // Box–Muller; 1 − u keeps the logarithm's argument in (0, 1].
    const z = Math.sqrt(-2 * Math.log(1 - random())) * Math.cos(2 * Math.PI * random());
    ms = Math.exp(mu + sigma * z);
    if (ms >= minMs && ms <= maxMs) break;
  }
  return Math.round(Math.min(maxMs, Math.max(minMs, ms)) * scale);
}

/**
 * A transient provider failure drawn at `rate`: half the failing submits are 429s, half 503s
 * (`times: null` = this attempt: every attempt draws again, so a retry usually goes through); at a
 * quarter of the rate an accepted request's first result fetch answers 503.
 */
export function drawFailure(rate: number, random: () => number): Failure | null {
  if (rate <= 0) return null;
  const u = random();
  if (u < rate / 2) return { mode: "rate_limit", times: null };
  if (u < rate) return { mode: "provider", times: null };
  if (u < rate * 1.25) return { mode: "result", times: 1 };
  return null;
}

/** A small seeded generator for reproducible draws in tests and the fal simulator. */
export const seededRandom = mulberry32;
