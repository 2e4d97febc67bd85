import { z } from "zod";
import { env } from "@/lib/core/env";
import { outputKindOf } from "./models";
import { drawFailure, drawLatencyMs, simulatorSettings, type SimulatorSettings } from "./latency-profile";

/**
 * How the simulator treats a request: its latency and any injected failure, so every path of the
 * engine can be exercised. Decided, in order, by markers in the input's text fields, then by the
 * model's entry in LOCAL_PROVIDER_MODELS, then by the profile (./profile: LOCAL_PROVIDER_PROFILE,
 * LOCAL_PROVIDER_LATENCY_MS, LOCAL_PROVIDER_LATENCY_SCALE, LOCAL_PROVIDER_ERROR_RATE). Latency and
 * failure are decided separately: `[latency:N]` alone still leaves the profile's failure draw.
 *
 * Markers (anywhere in a top-level string field, e.g. the prompt):
 *   [latency:2000]                 processing takes 2 s (queue wait included)
 *   [fail:generation]              the model fails: result/webhook carry a 422 with `detail`
 *   [fail:generation:<type>]       …with that error type (e.g. content_policy_violation)
 *   [fail:provider] / [fail:provider:N]     submit answers 503 (always / the first N attempts)
 *   [fail:rate_limit] / [fail:rate_limit:N] submit answers 429 with Retry-After: 1
 *   [fail:result] / [fail:result:N]         fetching the result answers 503
 *   [fail:timeout]                 the request starts and never finishes
 *   [queue:N]                      it waits N ms more in the queue before it starts (the protocol simulators)
 * A marker may name the simulator it is meant for, so one prompt can treat the providers of a
 * failover differently: `[fail@fal:provider]` is read by the fal-protocol simulator only,
 * `[queue@fal:60000]` likewise; `@replicate` is the Replicate simulator's, `@local` the built-in's.
 */
export type Failure =
  | { mode: "generation"; errorType: string | null }
  | { mode: "provider" | "rate_limit" | "result"; times: number | null }
  | { mode: "timeout" };

export type Behaviour = { latencyMs: number; failure: Failure | null; startDelayMs?: number };

export const MAX_LATENCY_MS = 24 * 60 * 60 * 1000;
const MARKER = /\[(fail|latency|queue)(?:@([a-z]+))?:([a-z_]+(?::[a-z0-9_]+)?|\d+)\]/gi;

export function parseFailure(text: string): Failure | null {
  const [mode, arg] = text.toLowerCase().split(":") as [string, string | undefined];
  if (mode === "generation" || mode === "model") return { mode: "generation", errorType: arg ?? null };
  if (mode === "timeout") return { mode: "timeout" };
  if (mode === "provider" || mode === "rate_limit" || mode === "result") {
    const times = arg === undefined ? null : Number(arg);
    return times === null || (Number.isSafeInteger(times) && times >= 0) ? { mode, times } : null;
  }
  return null;
}

export function formatFailure(f: Failure): string {
  if (f.mode === "generation") return f.errorType ? `generation:${f.errorType}` : "generation";
  if (f.mode === "timeout") return "timeout";
  return f.times === null ? f.mode : `${f.mode}:${f.times}`;
}

const modelsSchema = z.record(
  z.string(),
  z.object({
    latencyMs: z.number().int().min(0).max(MAX_LATENCY_MS).optional(),
    fail: z
      .string()
      .refine((v) => parseFailure(v) !== null, "unknown failure mode")
      .optional(),
  }),
);

let parsedFor: { raw: string | undefined; value: z.infer<typeof modelsSchema> } | undefined;
function modelConfig(endpointId: string) {
  const raw = env().LOCAL_PROVIDER_MODELS;
  if (!parsedFor || parsedFor.raw !== raw) {
    const result = modelsSchema.safeParse(raw ? JSON.parse(raw) : {});
    if (!result.success) {
      throw new Error(`LOCAL_PROVIDER_MODELS: ${result.error.issues.map((i) => `${i.path.join(".")}: ${i.message}`).join("; ")}`);
    }
    parsedFor = { raw, value: result.data };
  }
  return parsedFor.value[endpointId];
}

export type BehaviourOptions = {
  /** The catalog category: with the endpoint id it picks the kind of output, hence the profile's latency. */
  category?: string | null;
  /** Defaults to the environment's (simulatorSettings()). */
  settings?: SimulatorSettings;
  /** Which simulator reads it (`local`, `fal`, `replicate`): markers scoped to another are ignored. */
  simulator?: string;
  random?: () => number;
};

export function behaviourOf(endpointId: string, input: Record<string, unknown>, options: BehaviourOptions = {}): Behaviour {
  let latencyMs: number | undefined;
  let failure: Failure | null | undefined;
  let startDelayMs: number | undefined;
  for (const value of Object.values(input)) {
    if (typeof value !== "string" || !value.includes("[")) continue;
    for (const m of value.matchAll(MARKER)) {
      const [, kind, scope, arg] = m as unknown as [string, string, string | undefined, string];
      if (scope && scope.toLowerCase() !== (options.simulator ?? "local")) continue;
      const number = /^\d+$/.test(arg) ? Math.min(MAX_LATENCY_MS, Number(arg)) : undefined;
      if (kind.toLowerCase() === "latency" && number !== undefined) latencyMs ??= number;
      if (kind.toLowerCase() === "queue" && number !== undefined) startDelayMs ??= number;
      if (kind.toLowerCase() === "fail") failure ??= parseFailure(arg);
    }
  }
  const config = modelConfig(endpointId);
  const settings = options.settings ?? simulatorSettings();
  const random = options.random ?? Math.random;
  latencyMs ??=
    config?.latencyMs ??
    (settings.profile === "realistic"
      ? Math.min(MAX_LATENCY_MS, drawLatencyMs(outputKindOf(endpointId, options.category), random, settings.latencyScale))
      : settings.latencyMs);
  failure ??= config?.fail ? parseFailure(config.fail) : null;
  return {
    latencyMs,
    failure: failure ?? drawFailure(settings.errorRate, random),
    ...(startDelayMs !== undefined ? { startDelayMs } : {}),
  };
}
