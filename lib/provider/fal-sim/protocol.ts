import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import type { AddressInfo, Socket } from "node:net";
import { appIdOf, modelsAnswer, pricingAnswer, type FalModelFixture } from "./platform";
import { ed25519KeyPair, signFalWebhook } from "./signing";

/**
 * fal's wire format, served over loopback HTTP (notes/fal.md): the queue API (submit with
 * `fal_webhook`, status with logs and its SSE stream, result, cancel; the subpath rule), the
 * Platform API (`/v1/models`, `/v1/models/pricing`), the webhook JWKS, and signed `fal_webhook`
 * deliveries. What a request does over time is left to a subclass: the unit tests' scripted fake
 * (test/servers/fal.ts) and the simulator (./simulator.ts) share this one implementation.
 *
 * Faults can be scripted per route with `failNext(route, …actions)`: a status/body/headers
 * answer, `"drop"` (the connection is destroyed before any answer), `"accept-then-drop"` (submit
 * only: the request is queued, then the connection is destroyed) or `"hang"` (never answers).
 *
 *   queue:    {base}{queuePrefix}/{owner}/{app}[/{path}]    FAL_QUEUE_URL = server.queueUrl
 *   platform: {base}/v1/models, {base}/v1/models/pricing     FAL_API_URL   = server.apiUrl
 *   jwks:     {base}/.well-known/jwks.json                   FAL_JWKS_URL  = server.jwksUrl
 */
export type Route = "submit" | "status" | "stream" | "result" | "cancel" | "models" | "pricing" | "jwks";
export type Scripted = { status: number; body?: unknown; headers?: Record<string, string> };
export type Action = Scripted | "drop" | "accept-then-drop" | "hang";

export type RecordedCall = {
  route: Route | "unknown";
  method: string;
  path: string;
  query: URLSearchParams;
  headers: Record<string, string | string[] | undefined>;
  body: string;
};
export type WebhookDelivery = { requestId: string; status: number | null; body: string; headers: Record<string, string> };

export type FalLogLine = { message: string; level: string; source: "USER"; timestamp: string };
export type FalQueued = { id: string; endpointId: string; appId: string; input: Record<string, unknown>; webhookUrl: string | null };
export type FalSubmission = Omit<FalQueued, "id"> & { body: string };

export type FalPhase =
  | { status: "IN_QUEUE"; queuePosition: number }
  | { status: "IN_PROGRESS"; logs: FalLogLine[] }
  | { status: "COMPLETED"; logs: FalLogLine[]; inferenceTimeSeconds: number | null; error?: string | null; errorType?: string | null };

/** What the result route answers; `unavailable` is a transient refusal of this one fetch. */
export type FalOutcome =
  | { kind: "pending" }
  | { kind: "cancelled" }
  | { kind: "output"; output: Record<string, unknown> }
  | { kind: "error"; status: number; body: unknown; headers?: Record<string, string> }
  | { kind: "unavailable"; answer: Scripted };

export type FalServerOptions = {
  /** The only credentials accepted (`Authorization: Key <key>`). */
  key: string;
  userId: string;
  /** Where the queue API lives under the origin: "" (like queue.fal.run) or e.g. "/queue". */
  queuePrefix: string;
  /** Delivery attempts per webhook (fal: 10 over about two hours) and the first pause (then ×3). */
  webhookAttempts?: number;
  webhookRetryBaseMs?: number;
};

type Send = (status: number, payload: unknown, headers?: Record<string, string>) => void;

export abstract class FalQueueServer<R extends FalQueued = FalQueued> {
  readonly key: string;
  readonly userId: string;
  calls: RecordedCall[] = [];
  deliveries: WebhookDelivery[] = [];
  models: FalModelFixture[] = [];
  keys = [ed25519KeyPair()];
  /** Key used to sign webhooks (may be absent from the JWKS, to test a bad signature). */
  signingKey = this.keys[0]!;
  base = "";
  /** Keeps the calls and deliveries (tests); a long-running server turns it off. */
  record = true;
  protected requests = new Map<string, R>();
  protected readonly queuePrefix: string;
  private readonly webhookAttempts: number;
  private readonly webhookRetryBaseMs: number;
  private server: Server | null = null;
  private sockets = new Set<Socket>();
  private scripts = new Map<Route, Action[]>();
  private timers = new Set<ReturnType<typeof setTimeout>>();

  constructor(options: FalServerOptions) {
    this.key = options.key;
    this.userId = options.userId;
    this.queuePrefix = options.queuePrefix;
    this.webhookAttempts = options.webhookAttempts ?? 1;
    this.webhookRetryBaseMs = options.webhookRetryBaseMs ?? 2_000;
  }

  get queueUrl() {
    return `${this.base}${this.queuePrefix}`;
  }
  get apiUrl() {
    return `${this.base}/v1`;
  }
  get jwksUrl() {
    return `${this.base}/.well-known/jwks.json`;
  }

  /** Listens on `port` (0: any free one); `base` becomes the origin unless `publicUrl` is given. */
  async listen(options: { port?: number; host?: string; publicUrl?: string } = {}): Promise<this> {
    const server = createServer((req, res) => void this.handle(req, res).catch((err) => this.crashed(res, err)));
    server.on("connection", (s) => {
      this.sockets.add(s);
      s.on("close", () => this.sockets.delete(s));
    });
    await new Promise<void>((resolve, reject) => {
      server.once("error", reject);
      server.listen(options.port ?? 0, options.host ?? "127.0.0.1", resolve);
    });
    this.server = server;
    const host = options.host && options.host !== "0.0.0.0" && options.host !== "::" ? options.host : "127.0.0.1";
    this.base = (
      options.publicUrl ?? `http://${host.includes(":") ? `[${host}]` : host}:${(server.address() as AddressInfo).port}`
    ).replace(/\/+$/, "");
    return this;
  }

  async close() {
    for (const t of this.timers) clearTimeout(t);
    this.timers.clear();
    for (const s of this.sockets) s.destroy();
    const server = this.server;
    this.server = null;
    if (server) await new Promise<void>((resolve) => server.close(() => resolve()));
  }

  failNext(route: Route, ...actions: Action[]) {
    this.scripts.set(route, [...(this.scripts.get(route) ?? []), ...actions]);
  }

  callsTo(route: Route) {
    return this.calls.filter((c) => c.route === route);
  }

  request(id: string): R | undefined {
    return this.requests.get(id);
  }

  // --- What a request does: the subclass decides.

  /** A submission: accepted (with its queue position) or refused before queueing (429/5xx). */
  protected abstract accept(submission: FalSubmission): { request: R; queuePosition: number } | { refuse: Scripted };
  /** Where the request stands, asked once per status poll (and per tick of a status stream). */
  protected abstract phase(r: R): FalPhase;
  protected abstract outcome(r: R): Promise<FalOutcome>;
  protected abstract cancelRequest(r: R): "OK" | "CANCELLATION_REQUESTED" | "ALREADY_COMPLETED";
  /** Routes outside fal's (the simulator's media); true when answered. */
  protected handleOther?(req: IncomingMessage, res: ServerResponse, url: URL): Promise<boolean> | boolean;
  /** Told of each delivery attempt (the simulator logs them). */
  protected onDelivery?(delivery: WebhookDelivery, attempt: number): void;

  /** The body fal POSTs to `fal_webhook` for a completed request (notes/fal.md §4). */
  async webhookBody(r: R): Promise<Record<string, unknown>> {
    const base = { request_id: r.id, gateway_request_id: r.id };
    const outcome = await this.outcome(r);
    if (outcome.kind === "output") return { ...base, status: "OK", payload: outcome.output };
    if (outcome.kind === "error")
      return { ...base, status: "ERROR", error: `Invalid status code: ${outcome.status}`, payload: outcome.body };
    return { ...base, status: "OK", payload: null, payload_error: "The output could not be delivered; fetch the result" };
  }

  /** Sends the request's webhook (when it has one); resolves after the first attempt. */
  protected async deliver(r: R, attempt = 1): Promise<WebhookDelivery | null> {
    if (!r.webhookUrl) return null;
    const body = JSON.stringify(await this.webhookBody(r));
    const headers = {
      "content-type": "application/json",
      ...signFalWebhook({
        privateKey: this.signingKey.privateKey,
        requestId: r.id,
        userId: this.userId,
        timestamp: Math.floor(Date.now() / 1000),
        body,
      }),
    };
    let status: number | null = null;
    try {
      const res = await fetch(r.webhookUrl, { method: "POST", headers, body, signal: AbortSignal.timeout(15_000) });
      status = res.status;
      await res.body?.cancel().catch(() => {});
    } catch {
      status = null;
    }
    const delivery = { requestId: r.id, status, body, headers };
    if (this.record) this.deliveries.push(delivery);
    const ok = status !== null && status >= 200 && status < 300;
    if (!ok && attempt < this.webhookAttempts && this.server) {
      this.later(Math.min(30 * 60_000, this.webhookRetryBaseMs * 3 ** (attempt - 1)), () => void this.deliver(r, attempt + 1));
    }
    this.onDelivery?.(delivery, attempt);
    return delivery;
  }

  protected later(ms: number, fn: () => void) {
    const timer = setTimeout(() => {
      this.timers.delete(timer);
      fn();
    }, ms);
    timer.unref?.();
    this.timers.add(timer);
  }

  // --- HTTP.

  private crashed(res: ServerResponse, err: unknown) {
    console.error("fal server crashed on a request", err);
    if (!res.headersSent)
      res.writeHead(500, { "content-type": "application/json" }).end(JSON.stringify({ detail: "Internal Server Error" }));
  }

  private async handle(req: IncomingMessage, res: ServerResponse) {
    const url = new URL(req.url ?? "/", this.base || "http://127.0.0.1");
    const chunks: Buffer[] = [];
    for await (const c of req) chunks.push(c as Buffer);
    const body = Buffer.concat(chunks).toString("utf8");
    const method = req.method ?? "GET";
    const route = this.routeOf(method, url.pathname);
    if (this.record) this.calls.push({ route, method, path: url.pathname, query: url.searchParams, headers: req.headers, body });
    const send: Send = (status, payload, headers = {}) => {
      const text = typeof payload === "string";
      res.writeHead(status, { "content-type": text && payload.startsWith("<") ? "text/html" : "application/json", ...headers });
      res.end(payload === undefined ? "" : text ? payload : JSON.stringify(payload));
    };
    if (route === "unknown" && (await this.handleOther?.(req, res, url))) return;
    if (route !== "unknown") {
      const action = this.scripts.get(route)?.shift();
      if (action === "drop") return req.socket.destroy();
      if (action === "hang") return;
      if (action === "accept-then-drop") {
        this.enqueue(url, body);
        return req.socket.destroy();
      }
      if (action) return send(action.status, action.body, action.headers);
    }
    if (route === "jwks") return send(200, { keys: this.keys.map((k) => k.jwk) });
    // The model listing takes no key; everything else is refused without the right one, as fal does.
    if (req.headers.authorization !== `Key ${this.key}` && route !== "models") {
      return send(401, { detail: "No user found for Key ID and Secret" });
    }
    switch (route) {
      case "submit":
        return this.onSubmit(url, body, send);
      case "status":
      case "stream":
      case "result":
      case "cancel":
        return this.onRequest(route, url, send, res);
      case "models": {
        const answer = modelsAnswer(this.models, url.searchParams);
        return send(answer.status, answer.body);
      }
      case "pricing": {
        const answer = pricingAnswer(this.models, url.searchParams);
        return send(answer.status, answer.body);
      }
      default:
        return send(404, { detail: "Not Found" });
    }
  }

  private routeOf(method: string, path: string): Route | "unknown" {
    if (path === "/.well-known/jwks.json") return "jwks";
    if (path === "/v1/models" && method === "GET") return "models";
    if (path === "/v1/models/pricing" && method === "GET") return "pricing";
    if (!path.startsWith(`${this.queuePrefix}/`)) return "unknown";
    if (/\/requests\/[^/]+\/status$/.test(path) && method === "GET") return "status";
    if (/\/requests\/[^/]+\/status\/stream$/.test(path) && method === "GET") return "stream";
    if (/\/requests\/[^/]+\/cancel$/.test(path) && method === "PUT") return "cancel";
    if (/\/requests\/[^/]+$/.test(path) && method === "GET") return "result";
    if (!path.includes("/requests/") && method === "POST") return "submit";
    return "unknown";
  }

  /** Reads a submit: the submission, or fal's answer to a body or path it cannot take. */
  private parseSubmission(url: URL, body: string): FalSubmission | Scripted {
    const endpointId = url.pathname
      .slice(this.queuePrefix.length + 1)
      .split("/")
      .filter(Boolean)
      .map(decodeURIComponent)
      .join("/");
    let input: unknown;
    try {
      input = body ? JSON.parse(body) : {};
    } catch {
      return { status: 422, body: { detail: [{ loc: ["body"], msg: "Invalid JSON", type: "json_invalid" }] } };
    }
    if (!input || typeof input !== "object" || Array.isArray(input)) {
      return { status: 422, body: { detail: [{ loc: ["body"], msg: "Input should be a valid dictionary", type: "dict_type" }] } };
    }
    if (endpointId.split("/").length < 2) return { status: 404, body: { detail: "Application not found" } };
    return {
      endpointId,
      appId: appIdOf(endpointId),
      input: input as Record<string, unknown>,
      body,
      webhookUrl: url.searchParams.get("fal_webhook"),
    };
  }

  /** Queues a submission; what to answer when it was refused instead. */
  private enqueue(url: URL, body: string): { request: R; queuePosition: number } | Scripted {
    const submission = this.parseSubmission(url, body);
    if ("status" in submission) return submission;
    const accepted = this.accept(submission);
    if ("refuse" in accepted) return accepted.refuse;
    this.requests.set(accepted.request.id, accepted.request);
    return accepted;
  }

  private onSubmit(url: URL, body: string, send: Send) {
    const queued = this.enqueue(url, body);
    if ("status" in queued) return send(queued.status, queued.body, queued.headers);
    const r = queued.request;
    send(200, { request_id: r.id, gateway_request_id: r.id, status: "IN_QUEUE", queue_position: queued.queuePosition, ...this.urlsOf(r) });
  }

  /** fal's absolute URLs of a request: owner/app only, never the subpath. */
  private urlsOf(r: R) {
    const base = `${this.queueUrl}/${r.appId}/requests/${r.id}`;
    return { response_url: base, status_url: `${base}/status`, cancel_url: `${base}/cancel` };
  }

  private statusBody(r: R, phase: FalPhase, withLogs: boolean) {
    const common = { request_id: r.id, status: phase.status, ...this.urlsOf(r) };
    if (phase.status === "IN_QUEUE") return { ...common, queue_position: phase.queuePosition };
    const logs = withLogs ? phase.logs : null;
    if (phase.status === "IN_PROGRESS") return { ...common, logs };
    return {
      ...common,
      logs,
      metrics: { inference_time: phase.inferenceTimeSeconds },
      ...(phase.error ? { error: phase.error, error_type: phase.errorType ?? null } : {}),
    };
  }

  private async onRequest(route: "status" | "stream" | "result" | "cancel", url: URL, send: Send, res: ServerResponse) {
    const m = new RegExp(`^${this.queuePrefix}/(.+)/requests/([^/]+)`).exec(url.pathname)!;
    const r = this.requests.get(decodeURIComponent(m[2]!));
    // The subpath rule: these routes take owner/app only; a full endpoint id finds nothing.
    if (!r || r.appId !== m[1]!.split("/").map(decodeURIComponent).join("/")) {
      return send(404, route === "cancel" ? { status: "NOT_FOUND" } : { detail: "Request not found" });
    }
    const withLogs = url.searchParams.get("logs") === "1";
    if (route === "status") {
      const phase = this.phase(r);
      return send(phase.status === "COMPLETED" ? 200 : 202, this.statusBody(r, phase, withLogs));
    }
    if (route === "stream") return this.stream(r, withLogs, res);
    if (route === "cancel") {
      const said = this.cancelRequest(r);
      return send(said === "OK" ? 200 : said === "CANCELLATION_REQUESTED" ? 202 : 400, { status: said });
    }
    const idHeader = { "x-fal-request-id": r.id };
    const outcome = await this.outcome(r);
    switch (outcome.kind) {
      case "pending":
        return send(400, { detail: "Request is still in progress" }, idHeader);
      case "cancelled":
        return send(400, { detail: "Request was cancelled" }, idHeader);
      case "unavailable":
        return send(outcome.answer.status, outcome.answer.body, outcome.answer.headers);
      case "error":
        return send(outcome.status, outcome.body, { ...idHeader, ...outcome.headers });
      case "output":
        return send(200, outcome.output, idHeader);
    }
  }

  /** `status/stream`: an SSE `data:` event per change, a keep-alive comment, closed after COMPLETED. */
  private stream(r: R, withLogs: boolean, res: ServerResponse) {
    res.writeHead(200, { "content-type": "text/event-stream", "cache-control": "no-cache", connection: "keep-alive" });
    let last = "";
    let ticks = 0;
    const tick = () => {
      if (res.destroyed) return;
      const phase = this.phase(r);
      const data = JSON.stringify(this.statusBody(r, phase, withLogs));
      if (data !== last) res.write(`data: ${data}\n\n`);
      else if (++ticks % 60 === 0) res.write(": keep-alive\n\n");
      last = data;
      if (phase.status === "COMPLETED") return void res.end();
      this.later(250, tick);
    };
    tick();
  }
}
