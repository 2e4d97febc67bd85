import { monitorEventLoopDelay, performance } from "node:perf_hooks";
import type { BenchServer } from "./server";

/**
 * Where a window's latency went besides the gateway's own work: the server's event-loop delay and
 * garbage-collection time, from its /metrics (prom-client's collectors; the delay histogram starts
 * over at each scrape, so the second scrape covers the window alone), beside the event-loop delay
 * of this process, the load generator, whose own stalls are in every answer time it measures.
 */
export type LoopFigures = {
  /** The server's event-loop delay over the window, ms. */
  server: { p50: number; p99: number; max: number };
  /** The server's GC time per second of the window (ms/s) and its major (mark-compact) collections. */
  gc: { msPerSecond: number; minorMs: number; majorMs: number; major: number };
  /** This process's event-loop delay over the window, ms. */
  bench: { p50: number; p99: number; max: number };
};

type Scrape = Map<string, number>;

/**
 * Both histograms time a 10 ms timer (prom-client's default eventLoopMonitoringPrecision), so each
 * sample is 10 ms plus the delay: the figures below are the samples minus those 10 ms.
 */
const RESOLUTION_MS = 10;
const delayOf = (sampleMs: number) => Math.max(0, sampleMs - RESOLUTION_MS);

function parse(text: string): Scrape {
  const values = new Map<string, number>();
  for (const line of text.split("\n")) {
    if (!line.startsWith("nodejs_eventloop_lag_") && !line.startsWith("nodejs_gc_duration_seconds_")) continue;
    const at = line.lastIndexOf(" ");
    values.set(line.slice(0, at), Number(line.slice(at + 1)));
  }
  return values;
}

const gcSum = (s: Scrape, kind: string) => s.get(`nodejs_gc_duration_seconds_sum{kind="${kind}"}`) ?? 0;
const gcCount = (s: Scrape, kind: string) => s.get(`nodejs_gc_duration_seconds_count{kind="${kind}"}`) ?? 0;

/** Starts a window on `server`; `end()` closes it and gives its figures. */
export async function loopWindow(server: BenchServer): Promise<{ end: () => Promise<LoopFigures> }> {
  const before = parse(await server.scrape());
  const own = monitorEventLoopDelay({ resolution: RESOLUTION_MS });
  own.enable();
  const t0 = performance.now();
  return {
    async end() {
      own.disable();
      const after = parse(await server.scrape());
      const seconds = (performance.now() - t0) / 1000;
      const ms = (key: string) => delayOf((after.get(`nodejs_eventloop_lag_${key}_seconds`) ?? NaN) * 1000);
      const spent = (kind: string) => (gcSum(after, kind) - gcSum(before, kind)) * 1000;
      const kinds = ["minor", "major", "incremental", "weakcb"];
      return {
        server: { p50: ms("p50"), p99: ms("p99"), max: ms("max") },
        gc: {
          msPerSecond: kinds.reduce((sum, kind) => sum + spent(kind), 0) / seconds,
          minorMs: spent("minor"),
          majorMs: spent("major"),
          major: gcCount(after, "major") - gcCount(before, "major"),
        },
        bench: { p50: delayOf(own.percentile(50) / 1e6), p99: delayOf(own.percentile(99) / 1e6), max: delayOf(own.max / 1e6) },
      };
    },
  };
}
