import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { getDb } from "@/db/client";
import type { Clock } from "@/lib/jobs/clock";
import { JobExecutor } from "@/lib/jobs/executor";
import { fetchTransport } from "@/lib/jobs/protocol";
import { hashSigningKey } from "@/lib/jobs/signing-key";
import { getRunSummary, listRunsForEvent } from "@/lib/jobs/store";

/**
 * A loopback Inngest server for testing the production path: the parts of Inngest's HTTP surface
 * the app talks to, backed by the embedded executor in HTTP mode.
 *
 * - `POST /e/:eventKey`: the event API `inngest.send()` uses in server mode (wrong key → 401).
 * - `POST /fn/register`: the out-of-band sync an unsigned `PUT /api/inngest` makes.
 * - `GET /v1/events/:id/runs`: the REST API for a run's status and output (bearer = hashed signing key).
 * - Execution: after `connect(appUrl)`, the executor syncs the app in-band and calls its
 *   `/api/inngest` over HTTP with signed requests, as Inngest Cloud or `inngest start` would.
 */
export async function startInngestServer(opts: { eventKey: string; signingKey: string; clock?: Clock }) {
  const received: { path: string; events: unknown[] }[] = [];
  const registrations: unknown[] = [];
  let executor: JobExecutor | undefined;

  const server = createServer((req, res) => {
    void route(req, res).catch((err) => json(res, 500, { error: String(err) }));
  });

  async function route(req: IncomingMessage, res: ServerResponse) {
    const url = new URL(req.url ?? "/", "http://127.0.0.1");
    const event = /^\/e\/([^/]+)$/.exec(url.pathname);
    if (req.method === "POST" && event) {
      if (decodeURIComponent(event[1]!) !== opts.eventKey) return json(res, 401, { error: "Event key not found", status: 401 });
      const body = JSON.parse((await readBody(req)) || "[]");
      const events = Array.isArray(body) ? body : [body];
      received.push({ path: url.pathname, events });
      if (!executor) return json(res, 503, { error: "no app connected", status: 503 });
      const { ids } = await executor.send(events);
      return json(res, 200, { ids, status: 200 });
    }
    if (req.method === "POST" && url.pathname === "/fn/register") {
      if (req.headers.authorization !== `Bearer ${hashSigningKey(opts.signingKey)}`) return json(res, 401, { error: "unauthorized" });
      registrations.push(JSON.parse(await readBody(req)));
      return json(res, 200, { ok: true, modified: true });
    }
    const runs = /^\/v1\/events\/([^/]+)\/runs$/.exec(url.pathname);
    if (req.method === "GET" && runs) {
      if (req.headers.authorization !== `Bearer ${hashSigningKey(opts.signingKey)}`) return json(res, 401, { error: "unauthorized" });
      const db = await getDb();
      const list = await listRunsForEvent(db, decodeURIComponent(runs[1]!));
      const data = await Promise.all(list.map((r) => getRunSummary(db, r.id)));
      return json(res, 200, {
        data: data.map((r) => ({
          run_id: r!.id,
          function_id: r!.functionId,
          event_id: r!.eventId,
          status: { completed: "Completed", failed: "Failed", cancelled: "Cancelled" }[r!.status as string] ?? "Running",
          output: r!.status === "completed" ? r!.output : undefined,
          run_started_at: r!.createdAt.toISOString(),
          ended_at: r!.finishedAt?.toISOString(),
        })),
      });
    }
    json(res, 404, { error: "not found" });
  }

  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    received,
    registrations,
    /** Syncs the app at `appUrl` (its /api/inngest) and starts driving it; manual mode, so tests drain. */
    async connect(appUrl: string) {
      executor = await JobExecutor.create({ transport: fetchTransport(appUrl, opts.signingKey), manual: true, clock: opts.clock });
      return executor;
    },
    get executor() {
      if (!executor) throw new Error("connect() first");
      return executor;
    },
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

function json(res: ServerResponse, status: number, body: unknown) {
  res.writeHead(status, { "content-type": "application/json" }).end(JSON.stringify(body));
}

async function readBody(req: IncomingMessage): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of req) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks).toString("utf8");
}
