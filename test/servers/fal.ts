import { createHash, generateKeyPairSync, randomUUID, sign, type KeyObject } from "node:crypto";
import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import type { AddressInfo, Socket } from "node:net";

/**
 * A loopback server speaking fal's protocols, for tests (notes/fal.md): the queue API (submit with
 * `fal_webhook`, status with logs, result, cancel; the subpath rule enforced), the Platform API
 * (`/v1/models` with `expand=openapi-3.0`, `/v1/models/pricing`), the webhook JWKS, and signed
 * webhook deliveries (Ed25519 over `request_id\nuser_id\ntimestamp\nsha256hex(body)`).
 *
 * Faults are scripted per route with `failNext(route, …actions)`: a status/body/headers answer,
 * `"drop"` (the connection is destroyed before any answer), `"accept-then-drop"` (submit only:
 * the request is queued, then the connection is destroyed) or `"hang"` (never answers).
 *
 *   queue:    {base}/queue/{owner}/{app}[/{path}]          FAL_QUEUE_URL = server.queueUrl
 *   platform: {base}/v1/models, {base}/v1/models/pricing   FAL_API_URL   = server.apiUrl
 *   jwks:     {base}/.well-known/jwks.json                 FAL_JWKS_URL  = server.jwksUrl
 */
export type Route = "submit" | "status" | "result" | "cancel" | "models" | "pricing" | "jwks";
export type Scripted = { status: number; body?: unknown; headers?: Record<string, string> };
export type Action = Scripted | "drop" | "accept-then-drop" | "hang";

export type FalModelFixture = {
  endpointId: string;
  metadata?: Record<string, unknown>;
  openapi?: Record<string, unknown>;
  price?: { unit_price: number; unit: string; currency?: string };
};

/** What a submitted request turns into. */
export type Behaviour = {
  output?: Record<string, unknown> | ((input: Record<string, unknown>) => Record<string, unknown>);
  /** The model fails: result answers this status and body (and the webhook reports ERROR). */
  error?: { status: number; body: unknown; headers?: Record<string, string> };
  /** Status polls answered IN_QUEUE, then IN_PROGRESS, before COMPLETED (defaults 1 and 1). */
  pollsInQueue?: number;
  pollsInProgress?: number;
  /** Completes right after submit (and sends the webhook) instead of by polling. */
  autoComplete?: boolean;
};

type QueuedRequest = {
  id: string;
  endpointId: string;
  appId: string;
  input: Record<string, unknown>;
  webhookUrl: string | null;
  polls: number;
  state: "IN_QUEUE" | "IN_PROGRESS" | "COMPLETED";
  cancelled: boolean;
  behaviour: Behaviour;
};

export type RecordedCall = { route: Route | "unknown"; method: string; path: string; query: URLSearchParams; headers: Record<string, string | string[] | undefined>; body: string };
export type WebhookDelivery = { requestId: string; status: number | null; body: string; headers: Record<string, string> };

const NAMESPACES = new Set(["workflows", "comfy"]);
const appIdOf = (endpointId: string) => {
  const parts = endpointId.split("/");
  return parts.slice(0, NAMESPACES.has(parts[0]!) ? 3 : 2).join("/");
};

export function signFalWebhook(options: { privateKey: KeyObject; requestId: string; userId: string; timestamp: number; body: string | Uint8Array }) {
  const digest = createHash("sha256").update(options.body).digest("hex");
  const message = `${options.requestId}\n${options.userId}\n${options.timestamp}\n${digest}`;
  return {
    "x-fal-webhook-request-id": options.requestId,
    "x-fal-webhook-user-id": options.userId,
    "x-fal-webhook-timestamp": String(options.timestamp),
    "x-fal-webhook-signature": sign(null, Buffer.from(message), options.privateKey).toString("hex"),
  };
}

export function ed25519KeyPair(kid = randomUUID()) {
  const { publicKey, privateKey } = generateKeyPairSync("ed25519");
  const jwk = publicKey.export({ format: "jwk" }) as { kty: string; crv: string; x: string };
  return { kid, privateKey, publicKey, jwk: { kty: jwk.kty, crv: jwk.crv, x: jwk.x, kid } };
}

export class FakeFal {
  readonly key: string;
  readonly userId = "fake-fal-user";
  calls: RecordedCall[] = [];
  deliveries: WebhookDelivery[] = [];
  models: FalModelFixture[] = [];
  keys = [ed25519KeyPair()];
  /** Key used to sign webhooks (may be absent from the JWKS, to test a bad signature). */
  signingKey = this.keys[0]!;
  private server!: Server;
  private sockets = new Set<Socket>();
  private requests = new Map<string, QueuedRequest>();
  private behaviours = new Map<string, Behaviour>();
  private scripts = new Map<Route, Action[]>();
  base = "";

  constructor(options: { key?: string } = {}) {
    this.key = options.key ?? "fake-key-id:fake-key-secret";
  }

  get queueUrl() {
    return `${this.base}/queue`;
  }
  get apiUrl() {
    return `${this.base}/v1`;
  }
  get jwksUrl() {
    return `${this.base}/.well-known/jwks.json`;
  }

  static async start(options: { key?: string } = {}): Promise<FakeFal> {
    const fake = new FakeFal(options);
    fake.server = createServer((req, res) => void fake.handle(req, res));
    fake.server.on("connection", (s) => {
      fake.sockets.add(s);
      s.on("close", () => fake.sockets.delete(s));
    });
    await new Promise<void>((resolve) => fake.server.listen(0, "127.0.0.1", resolve));
    fake.base = `http://127.0.0.1:${(fake.server.address() as AddressInfo).port}`;
    return fake;
  }

  async close() {
    for (const s of this.sockets) s.destroy();
    await new Promise<void>((resolve) => this.server.close(() => resolve()));
  }

  behaviour(endpointId: string, behaviour: Behaviour) {
    this.behaviours.set(endpointId, behaviour);
  }

  failNext(route: Route, ...actions: Action[]) {
    this.scripts.set(route, [...(this.scripts.get(route) ?? []), ...actions]);
  }

  callsTo(route: Route) {
    return this.calls.filter((c) => c.route === route);
  }

  request(id: string) {
    return this.requests.get(id);
  }

  /** Finishes a request now and delivers its webhook (when it has one); resolves after delivery. */
  async complete(id: string): Promise<WebhookDelivery | null> {
    const r = this.requests.get(id);
    if (!r) throw new Error(`no request ${id}`);
    r.state = "COMPLETED";
    return this.deliver(r);
  }

  /** The body fal would POST to the webhook for this request. */
  webhookBody(r: QueuedRequest): Record<string, unknown> {
    const base = { request_id: r.id, gateway_request_id: r.id };
    if (r.behaviour.error) {
      return { ...base, status: "ERROR", error: `Invalid status code: ${r.behaviour.error.status}`, payload: r.behaviour.error.body };
    }
    return { ...base, status: "OK", payload: this.outputOf(r) };
  }

  private async deliver(r: QueuedRequest): Promise<WebhookDelivery | null> {
    if (!r.webhookUrl) return null;
    const body = JSON.stringify(this.webhookBody(r));
    const headers = {
      "content-type": "application/json",
      ...signFalWebhook({ privateKey: this.signingKey.privateKey, requestId: r.id, userId: this.userId, timestamp: Math.floor(Date.now() / 1000), body }),
    };
    let status: number | null = null;
    try {
      status = (await fetch(r.webhookUrl, { method: "POST", headers, body })).status;
    } catch {
      status = null;
    }
    const delivery = { requestId: r.id, status, body, headers };
    this.deliveries.push(delivery);
    return delivery;
  }

  private outputOf(r: QueuedRequest) {
    const out = r.behaviour.output;
    if (typeof out === "function") return out(r.input);
    return out ?? { images: [{ url: `${this.base}/media/${r.id}.png`, content_type: "image/png", width: 1024, height: 1024 }], seed: 42 };
  }

  private async handle(req: IncomingMessage, res: ServerResponse) {
    const url = new URL(req.url ?? "/", this.base);
    const chunks: Buffer[] = [];
    for await (const c of req) chunks.push(c as Buffer);
    const body = Buffer.concat(chunks).toString("utf8");
    const route = this.routeOf(req.method ?? "GET", url.pathname);
    this.calls.push({ route, method: req.method ?? "GET", path: url.pathname, query: url.searchParams, headers: req.headers, body });
    const send = (status: number, payload: unknown, headers: Record<string, string> = {}) => {
      res.writeHead(status, { "content-type": "application/json", ...headers });
      res.end(payload === undefined ? "" : typeof payload === "string" ? payload : JSON.stringify(payload));
    };
    if (route !== "unknown") {
      const action = this.scripts.get(route)?.shift();
      if (action === "drop") return req.socket.destroy();
      if (action === "hang") return;
      if (action && action !== "accept-then-drop") return send(action.status, action.body, action.headers);
      if (action === "accept-then-drop") {
        this.accept(url, body);
        return req.socket.destroy();
      }
    }
    if (route === "jwks") return send(200, { keys: this.keys.map((k) => k.jwk) });
    if (req.headers.authorization !== `Key ${this.key}` && route !== "models") {
      return send(401, { detail: "No user found for Key ID and Secret" });
    }
    switch (route) {
      case "submit":
        return this.onSubmit(url, body, send);
      case "status":
      case "result":
      case "cancel":
        return this.onRequest(route, url, send);
      case "models":
        return this.onModels(url, send);
      case "pricing":
        return this.onPricing(url, send);
      default:
        return send(404, { detail: "Not Found" });
    }
  }

  private routeOf(method: string, path: string): Route | "unknown" {
    if (path === "/.well-known/jwks.json") return "jwks";
    if (path === "/v1/models" && method === "GET") return "models";
    if (path === "/v1/models/pricing" && method === "GET") return "pricing";
    if (!path.startsWith("/queue/")) return "unknown";
    if (/\/requests\/[^/]+\/status$/.test(path) && method === "GET") return "status";
    if (/\/requests\/[^/]+\/cancel$/.test(path) && method === "PUT") return "cancel";
    if (/\/requests\/[^/]+$/.test(path) && method === "GET") return "result";
    if (!path.includes("/requests/") && method === "POST") return "submit";
    return "unknown";
  }

  private accept(url: URL, body: string): QueuedRequest {
    const endpointId = url.pathname.slice("/queue/".length).split("/").map(decodeURIComponent).join("/");
    const behaviour = this.behaviours.get(endpointId) ?? {};
    const r: QueuedRequest = {
      id: randomUUID(),
      endpointId,
      appId: appIdOf(endpointId),
      input: body ? (JSON.parse(body) as Record<string, unknown>) : {},
      webhookUrl: url.searchParams.get("fal_webhook"),
      polls: 0,
      state: "IN_QUEUE",
      cancelled: false,
      behaviour,
    };
    this.requests.set(r.id, r);
    if (behaviour.autoComplete) setImmediate(() => void this.complete(r.id));
    return r;
  }

  private onSubmit(url: URL, body: string, send: (s: number, b: unknown, h?: Record<string, string>) => void) {
    const r = this.accept(url, body);
    const base = `${this.queueUrl}/${r.appId}/requests/${r.id}`;
    send(200, {
      request_id: r.id,
      gateway_request_id: r.id,
      status: "IN_QUEUE",
      queue_position: this.requests.size - 1,
      response_url: base,
      status_url: `${base}/status`,
      cancel_url: `${base}/cancel`,
    });
  }

  private onRequest(route: "status" | "result" | "cancel", url: URL, send: (s: number, b: unknown, h?: Record<string, string>) => void) {
    const m = /^\/queue\/(.+)\/requests\/([^/]+)/.exec(url.pathname)!;
    const r = this.requests.get(m[2]!);
    // The subpath rule: these routes take owner/app only; a full endpoint id finds nothing.
    if (!r || r.appId !== m[1]) {
      return send(404, route === "cancel" ? { status: "NOT_FOUND" } : { detail: "Request not found" });
    }
    const idHeader = { "x-fal-request-id": r.id };
    if (route === "status") {
      this.advance(r);
      const logs = url.searchParams.get("logs") === "1";
      const common = { request_id: r.id, status: r.state, response_url: url.toString(), status_url: url.toString(), cancel_url: url.toString() };
      const logLines = [{ message: "Loading model", level: "INFO", source: "USER", timestamp: new Date().toISOString() }];
      if (r.state === "IN_QUEUE") return send(202, { ...common, queue_position: 0 });
      if (r.state === "IN_PROGRESS") return send(202, { ...common, logs: logs ? logLines : null });
      return send(200, { ...common, logs: logs ? logLines : null, metrics: { inference_time: 1.25 } });
    }
    if (route === "cancel") {
      if (r.state === "COMPLETED") return send(400, { status: "ALREADY_COMPLETED" });
      r.cancelled = true;
      if (r.state === "IN_QUEUE") {
        r.state = "COMPLETED";
        return send(200, { status: "OK" });
      }
      return send(202, { status: "CANCELLATION_REQUESTED" });
    }
    if (r.state !== "COMPLETED") return send(400, { detail: "Request is still in progress" }, idHeader);
    if (r.cancelled) return send(400, { detail: "Request was cancelled" }, idHeader);
    if (r.behaviour.error) return send(r.behaviour.error.status, r.behaviour.error.body, { ...idHeader, ...r.behaviour.error.headers });
    return send(200, this.outputOf(r), idHeader);
  }

  private advance(r: QueuedRequest) {
    if (r.state === "COMPLETED") return;
    r.polls += 1;
    const inQueue = r.behaviour.pollsInQueue ?? 1;
    const inProgress = r.behaviour.pollsInProgress ?? 1;
    r.state = r.polls <= inQueue ? "IN_QUEUE" : r.polls <= inQueue + inProgress ? "IN_PROGRESS" : "COMPLETED";
    if (r.state === "COMPLETED") void this.deliver(r);
  }

  private onModels(url: URL, send: (s: number, b: unknown) => void) {
    const ids = url.searchParams.getAll("endpoint_id");
    const q = url.searchParams.get("q")?.toLowerCase();
    const category = url.searchParams.get("category");
    const expand = url.searchParams.getAll("expand").includes("openapi-3.0");
    let list = this.models.filter((m) => (!ids.length || ids.includes(m.endpointId)) && (!category || m.metadata?.category === category));
    if (q) list = list.filter((m) => m.endpointId.includes(q) || String(m.metadata?.display_name ?? "").toLowerCase().includes(q));
    const limit = Number(url.searchParams.get("limit") ?? 50);
    const start = Number(Buffer.from(url.searchParams.get("cursor") ?? "MA==", "base64").toString() || 0);
    const page = list.slice(start, start + limit);
    const more = start + limit < list.length;
    send(200, {
      models: page.map((m) => ({
        endpoint_id: m.endpointId,
        ...(m.metadata ? { metadata: m.metadata } : {}),
        ...(expand ? { openapi: m.openapi ?? { error: { code: "expansion_failed", message: "no schema" } } } : {}),
      })),
      next_cursor: more ? Buffer.from(String(start + limit)).toString("base64") : null,
      has_more: more,
    });
  }

  private onPricing(url: URL, send: (s: number, b: unknown) => void) {
    const ids = url.searchParams.getAll("endpoint_id").flatMap((v) => v.split(","));
    if (!ids.length || ids.length > 50) return send(400, { error: { type: "validation_error", message: "1-50 endpoint ids" } });
    const prices = this.models
      .filter((m) => ids.includes(m.endpointId) && m.price)
      .map((m) => ({ endpoint_id: m.endpointId, unit_price: m.price!.unit_price, unit: m.price!.unit, currency: m.price!.currency ?? "USD" }));
    send(200, { prices, next_cursor: null, has_more: false });
  }
}

/** A minimal fal-style OpenAPI document for a model (what `expand=openapi-3.0` returns). */
export function falOpenApi(endpointId: string, name: string, input: Record<string, unknown>, output: Record<string, unknown>, extra: Record<string, unknown> = {}) {
  const app = appIdOf(endpointId);
  return {
    openapi: "3.0.4",
    info: { title: `Queue OpenAPI for ${endpointId}`, version: "1.0.0", "x-fal-metadata": { endpointId } },
    servers: [{ url: "https://queue.fal.run" }],
    paths: {
      [`/${endpointId}`]: {
        post: {
          requestBody: { required: true, content: { "application/json": { schema: { $ref: `#/components/schemas/${name}Input` } } } },
          responses: { "200": { content: { "application/json": { schema: { $ref: "#/components/schemas/QueueStatus" } } } } },
        },
      },
      [`/${app}/requests/{request_id}/status`]: {
        get: { responses: { "200": { content: { "application/json": { schema: { $ref: "#/components/schemas/QueueStatus" } } } } } },
      },
      [`/${app}/requests/{request_id}`]: {
        get: { responses: { "200": { content: { "application/json": { schema: { $ref: `#/components/schemas/${name}Output` } } } } } },
      },
    },
    components: {
      schemas: {
        QueueStatus: { type: "object", properties: { status: { type: "string" } } },
        [`${name}Input`]: input,
        [`${name}Output`]: output,
        ...extra,
      },
    },
  };
}
