import http from "node:http";
import { performance } from "node:perf_hooks";
import autocannon from "autocannon";

export type LoadOptions = {
  url: string;
  connections: number;
  /** Seconds of load, or `amount` requests in total. */
  duration?: number;
  amount?: number;
  method?: "GET" | "POST" | "PUT" | "PATCH" | "DELETE";
  headers?: Record<string, string>;
  body?: string | Buffer;
  /** Called per request so a scenario can vary bodies (autocannon `setupRequest`). */
  setupRequest?: (req: { method?: string; path?: string; body?: string; headers?: Record<string, string> }) => typeof req;
};

export type LoadResult = {
  requests: number;
  rps: number;
  errors: number;
  non2xx: number;
  statusCounts: Record<string, number>;
  latencyMs: { p50: number; p95: number; p99: number; max: number; mean: number };
};

export function percentile(sorted: number[], p: number): number {
  if (sorted.length === 0) return 0;
  const idx = Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1);
  return sorted[Math.max(0, idx)]!;
}

/** Runs autocannon and computes exact percentiles from every response time. */
export async function load(options: LoadOptions): Promise<LoadResult> {
  const times: number[] = [];
  const statusCounts: Record<string, number> = {};
  const started = performance.now();
  let lastAnswer = started;
  const instance = autocannon({
    url: options.url,
    connections: options.connections,
    // autocannon refuses an explicit `duration: undefined`: name only the one that applies.
    ...(options.amount ? { amount: options.amount } : { duration: options.duration ?? 10 }),
    method: options.method ?? "GET",
    headers: options.headers,
    body: options.body,
    requests: options.setupRequest ? [{ setupRequest: options.setupRequest as never }] : undefined,
  }) as unknown as autocannon.Instance & PromiseLike<autocannon.Result>;
  instance.on("response", (_client: unknown, statusCode: number, _bytes: number, responseTime: number) => {
    times.push(responseTime);
    statusCounts[statusCode] = (statusCounts[statusCode] ?? 0) + 1;
    lastAnswer = performance.now();
  });
  const result = await instance;
  // Throughput over the time the answers took: autocannon resolves a fixed `amount` only at its
  // next one-second tick, which would add up to a second to a run of a few seconds.
  const elapsed = (options.amount ? lastAnswer : performance.now()) - started;
  return summarize(times, statusCounts, elapsed / 1000, result.errors + result.timeouts, result.non2xx);
}

/** Exact percentiles of every response time. */
function summarize(
  times: number[],
  statusCounts: Record<string, number>,
  elapsedSeconds: number,
  errors: number,
  non2xx: number,
): LoadResult {
  times.sort((a, b) => a - b);
  const mean = times.reduce((s, t) => s + t, 0) / Math.max(1, times.length);
  return {
    requests: times.length,
    rps: times.length / elapsedSeconds,
    errors,
    non2xx,
    statusCounts,
    latencyMs: {
      p50: round(percentile(times, 50)),
      p95: round(percentile(times, 95)),
      p99: round(percentile(times, 99)),
      max: round(times[times.length - 1] ?? 0),
      mean: round(mean),
    },
  };
}

const round = (n: number) => Math.round(n * 100) / 100;

export type PacedOptions = {
  url: string;
  method: "POST" | "GET";
  body?: string;
  headers: (i: number) => Record<string, string>;
  /** Requests started per second, evenly spaced (an open loop: a slow answer does not delay the next start). */
  rate: number;
  amount: number;
  /** At most this many in flight (a start that finds them all busy waits for one). */
  connections: number;
};

/**
 * Smoothly paced load: request i starts at i / rate seconds, each timed from its own start, over
 * at most `connections` keep-alive sockets. autocannon's rate limit releases each second's quota
 * in a burst, which measures a queue again; this measures the service at a load it can carry.
 */
export async function paced(o: PacedOptions): Promise<LoadResult> {
  const agent = new http.Agent({ keepAlive: true, maxSockets: o.connections });
  const times: number[] = [];
  const statusCounts: Record<string, number> = {};
  let errors = 0;
  let non2xx = 0;
  const started = performance.now();
  const one = (i: number) =>
    new Promise<void>((resolve) => {
      const t0 = performance.now();
      const req = http.request(o.url, { method: o.method, agent, headers: o.headers(i) }, (res) => {
        res.resume();
        res.on("end", () => {
          times.push(performance.now() - t0);
          statusCounts[res.statusCode!] = (statusCounts[res.statusCode!] ?? 0) + 1;
          if (res.statusCode! >= 300) non2xx++;
          resolve();
        });
      });
      req.on("error", () => (errors++, resolve()));
      req.end(o.body);
    });
  const pending: Promise<void>[] = [];
  for (let i = 0; i < o.amount; i++) {
    const due = started + (i * 1000) / o.rate;
    const wait = due - performance.now();
    if (wait > 0) await new Promise((r) => setTimeout(r, wait));
    pending.push(one(i));
  }
  await Promise.all(pending);
  agent.destroy();
  return summarize(times, statusCounts, (performance.now() - started) / 1000, errors, non2xx);
}
