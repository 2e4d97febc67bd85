import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import type { AddressInfo, Socket } from "node:net";
import { cancelAnswer, resultAnswer, statusBody, submitBody, webhookBodyOf } from "./answers";
import { modelsAnswer, pricingAnswer, type FalModelFixture } from "./platform";
import type {
  Action,
  FalOutcome,
  FalPhase,
  FalQueued,
  FalServerOptions,
  FalSubmission,
  RecordedCall,
  Route,
  Scripted,
  WebhookDelivery,
} from "./protocol-types";
import { parseSubmission, requestPathOf, routeOf } from "./routes";
import { ed25519KeyPair, postFalWebhook } from "./signing";

export type {
  Action,
  FalLogLine,
  FalOutcome,
  FalPhase,
  FalQueued,
  FalServerOptions,
  FalSubmission,
  RecordedCall,
  Route,
  Scripted,
  WebhookDelivery,
} from "./protocol-types";

type Send = (status: number, payload: unknown, headers?: Record<string, string>) => void;

/**
 * fal's wire format, served over loopback HTTP (notes/fal.md): the queue API (submit with
 * `fal_webhook`, status with logs and its SSE stream, result, cancel; the subpath rule), the
 * Platform API (`/v1/models`, `/v1/models/pricing`), the webhook JWKS, and signed `fal_webhook`
 * deliveries. What a request does over time is left to a subclass: the unit tests' scripted fake
 * (test/servers/fal.ts) and the simulator (./simulator.ts) share this one implementation. Which
 * route a request is lives in ./routes.ts, what each route answers in ./answers.ts.
 *
 * Faults can be scripted per route with `failNext(route, …actions)`: a status/body/headers
 * answer, `"drop"` (the connection is destroyed before any answer), `"accept-then-drop"` (submit
 * only: the request is queued, then the connection is destroyed) or `"hang"` (never answers).
 *
 *   queue:    {base}{queuePrefix}/{owner}/{app}[/{path}]    FAL_QUEUE_URL = server.queueUrl
 *   platform: {base}/v1/models, {base}/v1/models/pricing     FAL_API_URL   = server.apiUrl
 *   jwks:     {base}/.well-known/jwks.json                   FAL_JWKS_URL  = server.jwksUrl
 */
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
    return webhookBodyOf(r, await this.outcome(r));
  }

  /** Sends the request's webhook (when it has one); resolves after the first attempt. */
  protected async deliver(r: R, attempt = 1): Promise<WebhookDelivery | null> {
    if (!r.webhookUrl) return null;
    const body = JSON.stringify(await this.webhookBody(r));
    const { status, headers } = await postFalWebhook(r.webhookUrl, {
      privateKey: this.signingKey.privateKey,
      requestId: r.id,
      userId: this.userId,
      body,
    });
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
    const route = routeOf(method, url.pathname, this.queuePrefix);
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
        this.enqueue(url, body, req.headers);
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
        return this.onSubmit(url, body, req.headers, send);
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

  /** Queues a submission; what to answer when it was refused instead. */
  private enqueue(url: URL, body: string, headers: IncomingMessage["headers"]): { request: R; queuePosition: number } | Scripted {
    const submission = parseSubmission(url, body, this.queuePrefix, headers);
    if ("status" in submission) return submission;
    const accepted = this.accept(submission);
    if ("refuse" in accepted) return accepted.refuse;
    this.requests.set(accepted.request.id, accepted.request);
    return accepted;
  }

  private onSubmit(url: URL, body: string, headers: IncomingMessage["headers"], send: Send) {
    const queued = this.enqueue(url, body, headers);
    if ("status" in queued) return send(queued.status, queued.body, queued.headers);
    send(200, submitBody(this.queueUrl, queued.request, queued.queuePosition));
  }

  private async onRequest(route: "status" | "stream" | "result" | "cancel", url: URL, send: Send, res: ServerResponse) {
    const path = requestPathOf(url.pathname, this.queuePrefix);
    const r = this.requests.get(path.requestId);
    // The subpath rule: these routes take owner/app only; a full endpoint id finds nothing.
    if (!r || r.appId !== path.appId) {
      return send(404, route === "cancel" ? { status: "NOT_FOUND" } : { detail: "Request not found" });
    }
    const withLogs = url.searchParams.get("logs") === "1";
    if (route === "status") {
      const phase = this.phase(r);
      return send(phase.status === "COMPLETED" ? 200 : 202, statusBody(this.queueUrl, r, phase, withLogs));
    }
    if (route === "stream") return this.stream(r, withLogs, res);
    const answer = route === "cancel" ? cancelAnswer(this.cancelRequest(r)) : resultAnswer(r, await this.outcome(r));
    return send(answer.status, answer.body, answer.headers);
  }

  /** `status/stream`: an SSE `data:` event per change, a keep-alive comment, closed after COMPLETED. */
  private stream(r: R, withLogs: boolean, res: ServerResponse) {
    res.writeHead(200, { "content-type": "text/event-stream", "cache-control": "no-cache", connection: "keep-alive" });
    let last = "";
    let ticks = 0;
    const tick = () => {
      if (res.destroyed) return;
      const phase = this.phase(r);
      const data = JSON.stringify(statusBody(this.queueUrl, r, phase, withLogs));
      if (data !== last) res.write(`data: ${data}\n\n`);
      else if (++ticks % 60 === 0) res.write(": keep-alive\n\n");
      last = data;
      if (phase.status === "COMPLETED") return void res.end();
      this.later(250, tick);
    };
    tick();
  }
}
