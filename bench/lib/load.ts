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
  /** Requests per second across all connections (open loop below capacity); default: as fast as answers come. */
  overallRate?: number;
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
  const started = Date.now();
  const instance = autocannon({
    url: options.url,
    connections: options.connections,
    // autocannon refuses an explicit `duration: undefined`: name only the one that applies.
    ...(options.amount ? { amount: options.amount } : { duration: options.duration ?? 10 }),
    ...(options.overallRate ? { overallRate: options.overallRate } : {}),
    method: options.method ?? "GET",
    headers: options.headers,
    body: options.body,
    requests: options.setupRequest ? [{ setupRequest: options.setupRequest as never }] : undefined,
  }) as unknown as autocannon.Instance & PromiseLike<autocannon.Result>;
  instance.on("response", (_client: unknown, statusCode: number, _bytes: number, responseTime: number) => {
    times.push(responseTime);
    statusCounts[statusCode] = (statusCounts[statusCode] ?? 0) + 1;
  });
  const result = await instance;
  const elapsed = (Date.now() - started) / 1000;
  times.sort((a, b) => a - b);
  const mean = times.reduce((s, t) => s + t, 0) / Math.max(1, times.length);
  return {
    requests: times.length,
    rps: times.length / elapsed,
    errors: result.errors + result.timeouts,
    non2xx: result.non2xx,
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
