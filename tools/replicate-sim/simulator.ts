import { createHash, randomBytes, randomUUID } from "node:crypto";
import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import type { AddressInfo, Socket } from "node:net";
import { Webhook } from "standardwebhooks";
import { behaviourOf, formatFailure } from "@/simulators/local-provider/behaviour";
import { simulatorSettings, type SimulatorSettings } from "@/simulators/local-provider/latency-profile";
import { checkMediaLink, MEDIA_PREFIX, renderMedia } from "@/simulators/local-provider/media-url";
import { OutputCache } from "@/simulators/local-provider/output-cache";
import { completesAt, failureOf, logsAt, phaseAt, queueMsOf, runMsOf, type TimelineRow } from "@/simulators/local-provider/timeline";

/**
 * Replicate's prediction API on loopback (`npm run sim:replicate`, notes/replicate.md): create on
 * an official model (`POST /v1/models/{owner}/{name}/predictions`) or a version (`POST
 * /v1/predictions`), `Prefer: wait[=N]` holding the create until the prediction ends, `GET` and
 * `POST …/cancel`, `Cancel-After` (not started by then: `aborted`; running: `canceled`), webhooks
 * signed as Standard Webhooks with the account's secret (`GET /v1/webhooks/default/secret`), 429
 * with Retry-After and RFC 7807 problems. Behind it is the built-in simulator's behaviour: prompt
 * markers (`[latency:N]`, `[fail:…]`), LOCAL_PROVIDER_MODELS, the latency profile, the timeline
 * (`starting` for the first fifth, then `processing` with logs) and real media, which it serves
 * under /sim/… signed with its own secret; outputs are Replicate-shaped (a list of image URIs, one
 * video or audio URI, text), so the real client (lib/provider/replicate) maps them back.
 * Output files are "removed" an hour after the end (`output: null`, `data_removed: true`).
 */
export type ReplicateSimulatorOptions = {
  /** The API token it accepts (`Authorization: Bearer <token>`). */
  token: string;
  settings?: SimulatorSettings;
  random?: () => number;
  now?: () => number;
  /** `whsec_…`; default random per process. */
  webhookSecret?: string;
  mediaSecret?: string;
  webhookAttempts?: number;
  webhookRetryBaseMs?: number;
  /** How long outputs are kept after the end (Replicate: about an hour). */
  outputRetentionMs?: number;
  /** Delivers a webhook (tests hand it to the app in-process); default fetch. */
  deliver?: (url: string, init: { method: "POST"; headers: Record<string, string>; body: string }) => Promise<{ status: number }>;
  log?: (line: string) => void;
  /** Extra `starting` time before every prediction starts (a slow Replicate, to make a Cancel-After pass unstarted); default 0. */
  startDelayMs?: number;
};

export type SimPrediction = TimelineRow & {
  id: string;
  model: string;
  version: string | null;
  webhook: string | null;
  events: string[];
  /** Not started by the Cancel-After deadline: aborted then. */
  abortedAt: number | null;
  webhookSent: boolean;
};

export type Scripted = { status: number; body: unknown; headers?: Record<string, string> };
export type Route = "create" | "get" | "cancel";
export type SimFile = { id: string; name: string; contentType: string; bytes: Buffer };
export type RecordedCall = {
  route: Route | "secret" | "file" | "other";
  method: string;
  path: string;
  headers: Record<string, string>;
  body: string;
};

const ENDED = new Set(["succeeded", "failed", "canceled", "aborted"]);
const problem = (status: number, title: string, detail: string): Scripted => ({
  status,
  body: { type: `https://replicate.com/docs/reference/http#${status}`, title, status, detail },
  headers: { "content-type": "application/problem+json" },
});
const rateLimited = (): Scripted => ({
  ...problem(429, "Request was throttled", "Request was throttled. Your rate limit resets in ~1s."),
  headers: { "content-type": "application/problem+json", "retry-after": "1" },
});

/** `1h30m`, `90s`, `500ms` in milliseconds; null when it is not a duration. */
export function durationMs(raw: string | undefined): number | null {
  if (!raw || !/^(\d+(ms|s|m|h))+$/.test(raw.trim())) return null;
  let total = 0;
  for (const [, n, unit] of raw.trim().matchAll(/(\d+)(ms|s|m|h)/g))
    total += Number(n) * { ms: 1, s: 1000, m: 60_000, h: 3_600_000 }[unit!]!;
  return total;
}

export class ReplicateSimulator {
  readonly token: string;
  readonly webhookSecret: string;
  base = "";
  calls: RecordedCall[] = [];
  record = true;
  private readonly settings: SimulatorSettings;
  private readonly random: () => number;
  private readonly now: () => number;
  private readonly mediaSecret: string;
  private readonly log: (line: string) => void;
  private readonly outputs: OutputCache;
  private readonly predictions = new Map<string, SimPrediction>();
  private readonly files = new Map<string, SimFile>();
  private readonly scripts = new Map<Route, Scripted[]>();
  private readonly submitAttempts = new Map<string, number>();
  private readonly timers = new Set<ReturnType<typeof setTimeout>>();
  private readonly sockets = new Set<Socket>();
  private server: Server | null = null;

  constructor(private readonly options: ReplicateSimulatorOptions) {
    this.token = options.token;
    this.webhookSecret = options.webhookSecret ?? `whsec_${randomBytes(24).toString("base64")}`;
    this.settings = options.settings ?? simulatorSettings();
    this.random = options.random ?? Math.random;
    this.now = options.now ?? Date.now;
    this.mediaSecret = options.mediaSecret ?? randomBytes(32).toString("hex");
    this.log = options.log ?? (() => {});
    this.outputs = new OutputCache({ now: this.now, links: () => ({ base: this.base, secret: this.mediaSecret }) });
  }

  /** REPLICATE_API_URL for the app. */
  get apiUrl() {
    return `${this.base}/v1`;
  }

  async listen(options: { port?: number; host?: string; publicUrl?: string } = {}): Promise<this> {
    const server = createServer((req, res) => void this.handle(req, res));
    server.on("connection", (s) => {
      this.sockets.add(s);
      s.on("close", () => this.sockets.delete(s));
    });
    await new Promise<void>((resolve, reject) => {
      server.once("error", reject);
      server.listen(options.port ?? 0, options.host ?? "127.0.0.1", () => resolve());
    });
    this.server = server;
    const { port } = server.address() as AddressInfo;
    this.base = (options.publicUrl ?? `http://${options.host ?? "127.0.0.1"}:${port}`).replace(/\/+$/, "");
    return this;
  }

  async close() {
    for (const t of this.timers) clearTimeout(t);
    this.timers.clear();
    for (const s of this.sockets) s.destroy();
    await new Promise<void>((resolve) => (this.server ? this.server.close(() => resolve()) : resolve()));
  }

  /** The next answers of a route, in order, instead of the simulated ones (tests: 429s, 5xx, problems). */
  failNext(route: Route, ...answers: Scripted[]) {
    this.scripts.set(route, [...(this.scripts.get(route) ?? []), ...answers]);
  }

  callsTo(route: RecordedCall["route"]) {
    return this.calls.filter((c) => c.route === route);
  }

  prediction(id: string) {
    return this.predictions.get(id);
  }

  /** The prediction as Replicate shows it now. */
  async view(p: SimPrediction): Promise<Record<string, unknown>> {
    const now = this.now();
    const status = this.statusOf(p, now);
    const start = p.submittedAt.getTime();
    const queueEnd = start + queueMsOf(p);
    const endAt = this.endOf(p);
    const ended = ENDED.has(status);
    const removed = ended && endAt !== null && now > endAt + (this.options.outputRetentionMs ?? 3_600_000);
    let output: unknown = null;
    let error: string | null = null;
    if (status === "succeeded" && !removed) {
      const built = await this.outputs.get({ ...p, category: null });
      if (built.ok) output = replicateOutput(built.output);
    }
    if (status === "failed") error = "Prediction failed: the model failed to generate an output (simulated)";
    const started = status !== "starting" && status !== "aborted" && !(status === "canceled" && (p.cancelledAt?.getTime() ?? 0) < queueEnd);
    const logs = logsAt(p, Math.min(now, endAt ?? now))
      .map((l) => l.message)
      .join("\n");
    return {
      id: p.id,
      model: p.model,
      version: p.version ?? "hidden",
      input: p.input,
      logs: started ? `Using seed: ${typeof p.input.seed === "number" ? p.input.seed : 42}\n${logs}` : "",
      output,
      data_removed: removed,
      error,
      status,
      source: "api",
      created_at: p.submittedAt.toISOString(),
      started_at: started ? new Date(queueEnd).toISOString() : null,
      completed_at: ended && endAt !== null ? new Date(endAt).toISOString() : null,
      urls: {
        get: `${this.apiUrl}/predictions/${p.id}`,
        cancel: `${this.apiUrl}/predictions/${p.id}/cancel`,
        web: `${this.base}/p/${p.id}`,
      },
      ...(status === "succeeded"
        ? { metrics: { predict_time: runMsOf(p) / 1000, total_time: (p.latencyMs + (p.startDelayMs ?? 0)) / 1000 } }
        : {}),
    };
  }

  private statusOf(p: SimPrediction, now: number): string {
    if (p.abortedAt !== null && now >= p.abortedAt) return "aborted";
    const phase = phaseAt(p, now);
    if (phase.state === "IN_QUEUE") return "starting";
    if (phase.state === "IN_PROGRESS") return "processing";
    if (phase.cancelled) return "canceled";
    return failureOf(p)?.mode === "generation" ? "failed" : "succeeded";
  }

  /** When it ends (or ended), null for never. */
  private endOf(p: SimPrediction): number | null {
    if (p.abortedAt !== null) return p.abortedAt;
    const end = completesAt(p);
    const cancelled = p.cancelledAt?.getTime() ?? null;
    if (cancelled !== null && (end === null || cancelled < end)) return cancelled;
    return end;
  }

  private later(ms: number, fn: () => void) {
    const t = setTimeout(() => {
      this.timers.delete(t);
      fn();
    }, ms);
    t.unref?.();
    this.timers.add(t);
  }

  private async handle(req: IncomingMessage, res: ServerResponse) {
    const url = new URL(req.url ?? "/", "http://sim");
    const method = req.method ?? "GET";
    const chunks: Buffer[] = [];
    for await (const c of req) chunks.push(c as Buffer);
    const bytes = Buffer.concat(chunks);
    const body = bytes.toString("utf8");
    const send = (a: Scripted) => {
      const json = typeof a.body === "string" ? a.body : JSON.stringify(a.body);
      res.writeHead(a.status, { "content-type": "application/json", ...a.headers }).end(json);
    };
    const path = url.pathname;
    const route: RecordedCall["route"] =
      method === "POST" && /^\/v1\/(models\/[^/]+\/[^/]+\/)?predictions$/.test(path)
        ? "create"
        : method === "GET" && /^\/v1\/predictions\/[^/]+$/.test(path)
          ? "get"
          : method === "POST" && /^\/v1\/predictions\/[^/]+\/cancel$/.test(path)
            ? "cancel"
            : path === "/v1/webhooks/default/secret"
              ? "secret"
              : path === "/v1/files" || path.startsWith("/v1/files/")
                ? "file"
                : "other";
    if (this.record) this.calls.push({ route, method, path: path + url.search, headers: flat(req.headers), body });
    try {
      if (route === "other") return await this.other(req, res, url);
      if (req.headers.authorization !== `Bearer ${this.token}`) {
        return send(problem(401, "Unauthenticated", "You did not pass a valid authentication token"));
      }
      if (route === "secret") return send({ status: 200, body: { key: this.webhookSecret } });
      if (route === "file") return send(await this.file(method, path, req.headers, bytes));
      const scripted = this.scripts.get(route)?.shift();
      if (scripted) return send(scripted);
      if (route === "create") return send(await this.create(path, req.headers, body));
      const id = decodeURIComponent(path.split("/")[3]!);
      const p = this.predictions.get(id);
      if (!p) return send(problem(404, "Not found", "The requested resource could not be found"));
      if (route === "cancel") this.cancel(p);
      return send({ status: 200, body: await this.view(p) });
    } catch (err) {
      send(problem(500, "Internal server error", String(err)));
    }
  }

  private async create(path: string, headers: IncomingMessage["headers"], raw: string): Promise<Scripted> {
    let body: { input?: unknown; version?: unknown; webhook?: unknown; webhook_events_filter?: unknown };
    try {
      body = JSON.parse(raw);
    } catch {
      return problem(400, "Invalid JSON", "The request body is not valid JSON");
    }
    const modelMatch = /^\/v1\/models\/([^/]+)\/([^/]+)\/predictions$/.exec(path);
    const version = typeof body.version === "string" ? body.version.split(":").pop()! : null;
    if (!modelMatch && !version) return problem(422, "Input validation failed", "version is required");
    if (!body.input || typeof body.input !== "object" || Array.isArray(body.input)) {
      const refused = problem(422, "Input validation failed", "- input: Invalid type. Expected: object");
      return {
        ...refused,
        body: { ...(refused.body as object), invalid_fields: [{ type: "required", field: "input", description: "input is required" }] },
      };
    }
    const input = body.input as Record<string, unknown>;
    const model = modelMatch ? `${modelMatch[1]}/${modelMatch[2]}` : `version/${version}`;
    const behaviour = behaviourOf(model, input, { settings: this.settings, random: this.random, simulator: "replicate" });
    const failure = behaviour.failure;
    const key = createHash("sha256").update(`${model}\n${raw}`).digest("hex");
    if (failure && (failure.mode === "provider" || failure.mode === "rate_limit")) {
      const attempt = (this.submitAttempts.get(key) ?? 0) + 1;
      this.submitAttempts.set(key, attempt);
      if (failure.times === null || attempt <= failure.times) {
        this.log(`create ${model} refused: ${failure.mode === "rate_limit" ? 429 : 503} (attempt ${attempt})`);
        return failure.mode === "rate_limit" ? rateLimited() : problem(503, "Service unavailable", "Replicate is temporarily unavailable");
      }
    }
    this.submitAttempts.delete(key);
    const kept =
      failure && failure.mode !== "provider" && failure.mode !== "rate_limit" && failure.mode !== "result" ? formatFailure(failure) : null;
    const now = this.now();
    const p: SimPrediction = {
      id: randomUUID().replaceAll("-", "").slice(0, 26),
      model,
      version,
      endpointId: model,
      input,
      latencyMs: behaviour.latencyMs,
      failure: kept,
      submittedAt: new Date(now),
      cancelledAt: null,
      startDelayMs: behaviour.startDelayMs ?? this.options.startDelayMs ?? 0,
      abortedAt: null,
      webhook: typeof body.webhook === "string" ? body.webhook : null,
      events: Array.isArray(body.webhook_events_filter) ? body.webhook_events_filter.map(String) : ["start", "output", "logs", "completed"],
      webhookSent: false,
    };
    const deadline = durationMs(headerOf(headers, "cancel-after"));
    if (deadline !== null) {
      if (deadline < queueMsOf(p)) p.abortedAt = now + deadline;
      else if ((completesAt(p) ?? Infinity) > now + deadline) p.cancelledAt = new Date(now + deadline);
    }
    this.predictions.set(p.id, p);
    this.log(
      `create ${model} → ${p.id} (latency ${p.latencyMs} ms${kept ? `, fail:${kept}` : ""}${p.startDelayMs ? `, start delay ${p.startDelayMs} ms` : ""}${deadline !== null ? `, cancel-after ${deadline} ms` : ""}${p.webhook ? ", webhook" : ""})`,
    );
    this.scheduleWebhook(p);
    const wait = /^wait(=(\d+))?$/.exec(headerOf(headers, "prefer")?.trim() ?? "");
    if (wait) {
      const until = now + Math.min(60, Math.max(1, Number(wait[2] ?? 60))) * 1000;
      const end = this.endOf(p);
      const hold = Math.max(0, Math.min(until, end ?? Infinity) - this.now());
      if (hold > 0) await new Promise((r) => this.later(hold, () => r(undefined)));
    }
    return { status: 201, body: await this.view(p) };
  }

  /** `POST /v1/files` (multipart `content`) stores a file; `GET /v1/files/{id}` describes it. */
  private async file(method: string, path: string, headers: IncomingMessage["headers"], bytes: Buffer): Promise<Scripted> {
    const describe = (f: SimFile) => ({
      id: f.id,
      name: f.name,
      content_type: f.contentType,
      size: f.bytes.byteLength,
      checksums: { sha256: createHash("sha256").update(f.bytes).digest("hex") },
      urls: { get: `${this.apiUrl}/files/${f.id}` },
      created_at: new Date(this.now()).toISOString(),
      expires_at: new Date(this.now() + 24 * 3_600_000).toISOString(),
    });
    if (method === "GET") {
      const f = this.files.get(path.split("/")[3] ?? "");
      return f ? { status: 200, body: describe(f) } : problem(404, "Not found", "The requested resource could not be found");
    }
    const form = await new Request("http://sim/", { method: "POST", headers: flat(headers), body: new Uint8Array(bytes) })
      .formData()
      .catch(() => null);
    const content = form?.get("content");
    if (!content || typeof content === "string") return problem(400, "Bad request", "content is required");
    const f: SimFile = {
      id: randomUUID().replaceAll("-", ""),
      name: content.name,
      contentType: content.type || "application/octet-stream",
      bytes: Buffer.from(await content.arrayBuffer()),
    };
    this.files.set(f.id, f);
    this.log(`file ${f.id} (${f.bytes.byteLength} bytes, ${f.contentType})`);
    return { status: 201, body: describe(f) };
  }

  /** A file uploaded with `POST /v1/files`. */
  uploaded(id: string) {
    return this.files.get(id);
  }

  private cancel(p: SimPrediction) {
    const now = this.now();
    if (ENDED.has(this.statusOf(p, now))) return;
    p.cancelledAt = new Date(now);
    p.abortedAt = null;
    this.log(`cancel ${p.id}`);
    this.scheduleWebhook(p);
  }

  private scheduleWebhook(p: SimPrediction) {
    if (!p.webhook || !p.events.includes("completed")) return;
    const end = this.endOf(p);
    if (end === null) return;
    this.later(Math.max(1, end - this.now()), () => void this.sendWebhook(p));
  }

  private async sendWebhook(p: SimPrediction, attempt = 1, msgId = `msg_${randomUUID()}`) {
    if (p.webhookSent) return;
    // A timer may fire a millisecond before the clock reads its due time (a loaded machine): not
    // ended yet by the clock, so look again at the end rather than never send.
    if (!ENDED.has(this.statusOf(p, this.now()))) {
      const end = this.endOf(p);
      if (attempt === 1 && end !== null && end > this.now()) this.scheduleWebhook(p);
      return;
    }
    p.webhookSent = true;
    const body = JSON.stringify(await this.view(p));
    const timestamp = new Date(this.now());
    const signature = new Webhook(this.webhookSecret).sign(msgId, timestamp, body);
    const headers = {
      "content-type": "application/json",
      "webhook-id": msgId,
      "webhook-timestamp": String(Math.floor(timestamp.getTime() / 1000)),
      "webhook-signature": signature,
    };
    const deliver =
      this.options.deliver ?? ((url, init) => fetch(url, { ...init, redirect: "manual", signal: AbortSignal.timeout(30_000) }));
    let status: number | null = null;
    try {
      status = (await deliver(p.webhook!, { method: "POST", headers, body })).status;
    } catch {
      status = null;
    }
    this.log(`webhook ${p.id} attempt ${attempt} → ${status ?? "no answer"}`);
    if (status !== null && status >= 200 && status < 300) return;
    if (attempt >= (this.options.webhookAttempts ?? 5)) return;
    p.webhookSent = false;
    this.later((this.options.webhookRetryBaseMs ?? 2_000) * 3 ** (attempt - 1), () => void this.sendWebhook(p, attempt + 1, msgId));
  }

  private async other(req: IncomingMessage, res: ServerResponse, url: URL) {
    const method = req.method ?? "GET";
    if (url.pathname === "/" || url.pathname === "/health") {
      res
        .writeHead(200, { "content-type": "application/json" })
        .end(JSON.stringify({ ok: true, service: "replicate simulator", apiUrl: this.apiUrl, settings: this.settings }));
      return;
    }
    if ((method === "GET" || method === "HEAD") && url.pathname.startsWith(MEDIA_PREFIX)) {
      const check = checkMediaLink(url.pathname, url.searchParams, Math.floor(this.now() / 1000), this.mediaSecret);
      if (check.ok) {
        const { bytes, contentType } = await renderMedia(check.spec);
        res.writeHead(200, {
          "content-type": contentType,
          "content-length": String(bytes.byteLength),
          "cache-control": "public, max-age=3600",
        });
        res.end(method === "HEAD" ? undefined : Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength));
        return;
      }
    }
    res.writeHead(404, { "content-type": "application/problem+json" }).end(JSON.stringify(problem(404, "Not found", "Not found").body));
  }
}

/** The simulator's fal-shaped output as Replicate's models return theirs: bare URIs, lists of them, text. */
export function replicateOutput(out: Record<string, unknown>): unknown {
  const url = (f: unknown) => (f && typeof f === "object" ? (f as { url?: unknown }).url : undefined);
  if (Array.isArray(out.images)) return out.images.map(url);
  for (const key of ["video", "audio", "image", "model_mesh", "audio_url"]) {
    const u = typeof out[key] === "string" ? out[key] : url(out[key]);
    if (typeof u === "string") return u;
  }
  if (typeof out.text === "string") return out.text;
  if (Array.isArray(out.embedding)) return out.embedding;
  return out;
}

const headerOf = (headers: IncomingMessage["headers"], name: string) => {
  const v = headers[name];
  return Array.isArray(v) ? v[0] : v;
};
const flat = (headers: IncomingMessage["headers"]) =>
  Object.fromEntries(Object.entries(headers).map(([k, v]) => [k, Array.isArray(v) ? v.join(", ") : String(v ?? "")]));
