import http from "node:http";
import { performance } from "node:perf_hooks";

/**
 * Cheap HTTP clients for a thousand concurrent callers from one process on two shared cores: raw
 * node:http over keep-alive agents without a socket cap (each caller keeps its own socket), no
 * fetch/undici layers. Times are `performance.now()` ms; `at` is the wall clock (ms since epoch)
 * when the answer ended, to compare with database timestamps.
 */
// An idle socket is dropped after 4 s, before the server closes it at 5 s (its `Keep-Alive: timeout=5`, which
// undici and browsers honour): a request sent on a socket the server is closing fails with ECONNRESET.
export const agent = new http.Agent({ keepAlive: true, maxSockets: Infinity, maxFreeSockets: 4096, timeout: 4_000 });

export type Answer = { status: number; body: string; ms: number; at: number; headers: http.IncomingHttpHeaders };

export function call(
  url: string,
  o: { method?: string; key?: string; body?: string; headers?: Record<string, string> } = {},
): Promise<Answer> {
  return new Promise((resolve) => {
    const t0 = performance.now();
    const headers: Record<string, string> = { ...o.headers };
    if (o.key) headers.authorization = `Bearer ${o.key}`;
    if (o.body !== undefined) headers["content-type"] = "application/json";
    const req = http.request(url, { method: o.method ?? (o.body === undefined ? "GET" : "POST"), agent, headers }, (res) => {
      const chunks: Buffer[] = [];
      res.on("data", (c: Buffer) => chunks.push(c));
      res.on("end", () =>
        resolve({
          status: res.statusCode!,
          body: Buffer.concat(chunks).toString("utf8"),
          ms: performance.now() - t0,
          at: Date.now(),
          headers: res.headers,
        }),
      );
      res.on("error", () => resolve({ status: 0, body: "", ms: performance.now() - t0, at: Date.now(), headers: {} }));
    });
    req.on("error", () => resolve({ status: 0, body: "", ms: performance.now() - t0, at: Date.now(), headers: {} }));
    req.end(o.body);
  });
}

export type SseEvent = { id?: string; event: string; data: string; at: number };

export type SseClient = {
  /** The HTTP status of the answer (0: the connection failed). */
  status: Promise<number>;
  /** Resolves when the server closes the stream (or the connection fails). */
  ended: Promise<SseEvent[]>;
  close: () => void;
};

/** Opens an event stream on its own socket; every event is stamped with the wall clock when it arrived. */
export function openStream(url: string, key: string, onEvent?: (e: SseEvent) => void): SseClient {
  const events: SseEvent[] = [];
  let resolveStatus!: (s: number) => void;
  let resolveEnded!: (e: SseEvent[]) => void;
  const status = new Promise<number>((r) => (resolveStatus = r));
  const ended = new Promise<SseEvent[]>((r) => (resolveEnded = r));
  const req = http.get(url, { agent: false, headers: { authorization: `Bearer ${key}`, accept: "text/event-stream" } }, (res) => {
    resolveStatus(res.statusCode!);
    res.setEncoding("utf8");
    let buffer = "";
    res.on("data", (chunk: string) => {
      buffer += chunk;
      for (let cut = buffer.indexOf("\n\n"); cut >= 0; cut = buffer.indexOf("\n\n")) {
        const block = buffer.slice(0, cut);
        buffer = buffer.slice(cut + 2);
        const e: SseEvent = { event: "message", data: "", at: Date.now() };
        let isEvent = false;
        for (const line of block.split("\n")) {
          if (line.startsWith("id: ")) e.id = line.slice(4);
          else if (line.startsWith("event: ")) {
            e.event = line.slice(7);
            isEvent = true;
          } else if (line.startsWith("data: ")) {
            e.data = line.slice(6);
            isEvent = true;
          }
        }
        if (!isEvent) continue;
        events.push(e);
        onEvent?.(e);
      }
    });
    res.on("end", () => resolveEnded(events));
    res.on("error", () => resolveEnded(events));
    res.on("close", () => resolveEnded(events));
  });
  req.on("error", () => (resolveStatus(0), resolveEnded(events)));
  return { status, ended, close: () => req.destroy() };
}

export const sleep = (ms: number) => new Promise((r) => setTimeout(r, Math.max(0, ms)));
