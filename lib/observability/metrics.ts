import { collectDefaultMetrics, Counter, Histogram, Registry } from "prom-client";
import { env } from "@/lib/core/env";

/**
 * Prometheus metrics (prom-client), served at /metrics when METRICS_TOKEN is set. Nothing is
 * recorded while it is unset: nobody could read it. The registry lives on `globalThis`, because the
 * production build copies this module into several server chunks and every route must record
 * into the one /metrics reads.
 *
 * Recording sits on every request's path, so it is O(1) and allocates nothing once a series
 * exists: label objects are made once per (route, method, status) and reused. Label values are
 * bounded: route templates (lib/http/route-template.ts), known methods, status codes;
 * model ids only on generations, which exist only for catalogued models.
 */
type Labels = { route: string; method: string; status: string };

export type Metrics = {
  registry: Registry;
  httpRequests: Counter<"route" | "method" | "status">;
  httpDuration: Histogram<"route" | "method" | "status">;
  generations: Counter<"model" | "status">;
  providerDuration: Histogram<"provider" | "operation" | "outcome">;
  failovers: Counter<"from" | "to" | "reason">;
  /** route → (status × 8 + method index) → labels, made once. */
  series: Map<string, Map<number, Labels>>;
};

const METHODS = ["GET", "HEAD", "POST", "PUT", "PATCH", "DELETE", "OPTIONS"];
/** A guard, not a limit the app reaches: past it new routes are counted as `other`. */
const MAX_ROUTES = 500;
/** Sync runs may take up to RUN_SYNC_TIMEOUT_MS (5 minutes by default). */
const HTTP_BUCKETS = [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 60, 300];
const PROVIDER_BUCKETS = [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 60];

const g = globalThis as unknown as { __gwMetrics?: Metrics };

/** Whether /metrics is served (METRICS_TOKEN is set), and so whether anything is recorded. */
export const metricsEnabled = (): boolean => env().METRICS_TOKEN !== undefined;

export function metrics(): Metrics {
  return (g.__gwMetrics ??= build());
}

function build(): Metrics {
  const registry = new Registry();
  const registers = [registry];
  // Process CPU, memory, event-loop delay, GC and handles: what an operator reads first.
  collectDefaultMetrics({ register: registry });
  return {
    registry,
    httpRequests: new Counter({
      name: "gateway_http_requests_total",
      help: "API requests answered, by route template, method and status",
      labelNames: ["route", "method", "status"],
      registers,
    }),
    httpDuration: new Histogram({
      name: "gateway_http_request_duration_seconds",
      help: "Time from a request's arrival at its route handler to its answer (a stream's headers), by route template, method and status",
      labelNames: ["route", "method", "status"],
      buckets: HTTP_BUCKETS,
      registers,
    }),
    generations: new Counter({
      name: "gateway_generations_total",
      help: "Generations ended in this process, by model and final status (completed, failed, cancelled)",
      labelNames: ["model", "status"],
      registers,
    }),
    providerDuration: new Histogram({
      name: "gateway_provider_request_duration_seconds",
      help: "Calls to a generation provider's queue (submit, status, result, cancel), by provider, operation and outcome (error: unavailable, i.e. network, timeout, 429 or 5xx)",
      labelNames: ["provider", "operation", "outcome"],
      buckets: PROVIDER_BUCKETS,
      registers,
    }),
    failovers: new Counter({
      name: "gateway_provider_failovers_total",
      help: "Jobs moved to their next route before they started (a refused submit, a missed start deadline), by provider left, provider taken and reason",
      labelNames: ["from", "to", "reason"],
      registers,
    }),
    series: new Map(),
  };
}

/** One answered request (from lib/http/observe.ts). */
export function recordRequest(route: string, method: string, status: number, seconds: number): void {
  const m = metrics();
  let byCode = m.series.get(route);
  if (!byCode) {
    if (m.series.size >= MAX_ROUTES) return recordRequest("other", method, status, seconds);
    byCode = new Map();
    m.series.set(route, byCode);
  }
  let methodIndex = METHODS.indexOf(method);
  if (methodIndex < 0) methodIndex = METHODS.length;
  const code = status * 8 + methodIndex;
  let labels = byCode.get(code);
  if (!labels) {
    labels = { route, method: METHODS[methodIndex] ?? "other", status: String(status) };
    byCode.set(code, labels);
  }
  m.httpRequests.inc(labels);
  m.httpDuration.observe(labels, seconds);
}

/** A generation reached its final status (lib/generation/finalize.ts, once per generation). */
export function countGeneration(modelId: string, status: string): void {
  if (metricsEnabled()) metrics().generations.inc({ model: modelId, status });
}

/** One call to a provider's queue API under its circuit breaker. */
export function observeProviderCall(provider: string, operation: string, ok: boolean, seconds: number): void {
  if (metricsEnabled()) metrics().providerDuration.observe({ provider, operation, outcome: ok ? "ok" : "error" }, seconds);
}

/** A job moved from one provider to the next before it started (lib/generation/routing.ts). */
export function observeFailover(from: string, to: string, reason: string): void {
  if (metricsEnabled()) metrics().failovers.inc({ from, to, reason });
}

// Open event streams are counted whether or not metrics are on, so an opening and its closing are
// always paired (METRICS_TOKEN may only be read after a stream opened: tests switch it).
const live = ((globalThis as unknown as { __gwLiveStreams?: { open: number } }).__gwLiveStreams ??= { open: 0 });

/** An SSE stream opened (lib/http/sse.ts); returns its closing, safe to call more than once. */
export function streamOpened(): () => void {
  live.open += 1;
  let closed = false;
  return () => {
    if (closed) return;
    closed = true;
    live.open -= 1;
  };
}

export const openStreamCount = (): number => live.open;
