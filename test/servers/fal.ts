import { randomUUID } from "node:crypto";
import { FalQueueServer, type FalOutcome, type FalPhase, type FalQueued, type FalSubmission } from "@/tools/fal-sim/protocol";

/**
 * A loopback server speaking fal's protocols, for tests (notes/fal.md), with requests that move
 * only when a test says so: each status poll advances one step, `complete()` finishes one now, and
 * faults are scripted per route with `failNext(route, …actions)`. The wire format (queue, Platform
 * API, JWKS, signed webhooks) is tools/fal-sim/protocol.ts, shared with `npm run sim:fal`.
 *
 *   queue:    {base}/queue/{owner}/{app}[/{path}]          FAL_QUEUE_URL = server.queueUrl
 *   platform: {base}/v1/models, {base}/v1/models/pricing   FAL_API_URL   = server.apiUrl
 *   jwks:     {base}/.well-known/jwks.json                 FAL_JWKS_URL  = server.jwksUrl
 */
export type { Action, RecordedCall, Route, Scripted, WebhookDelivery } from "@/tools/fal-sim/protocol";
export type { FalModelFixture } from "@/tools/fal-sim/platform";
export { falOpenApi } from "@/tools/fal-sim/platform";
export { ed25519KeyPair, signFalWebhook } from "@/tools/fal-sim/signing";

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

type QueuedRequest = FalQueued & {
  polls: number;
  state: "IN_QUEUE" | "IN_PROGRESS" | "COMPLETED";
  cancelled: boolean;
  behaviour: Behaviour;
};

export class FakeFal extends FalQueueServer<QueuedRequest> {
  private behaviours = new Map<string, Behaviour>();

  constructor(options: { key?: string } = {}) {
    super({ key: options.key ?? "fake-key-id:fake-key-secret", userId: "fake-fal-user", queuePrefix: "/queue" });
  }

  static async start(options: { key?: string } = {}): Promise<FakeFal> {
    return new FakeFal(options).listen();
  }

  behaviour(endpointId: string, behaviour: Behaviour) {
    this.behaviours.set(endpointId, behaviour);
  }

  /** Finishes a request now and delivers its webhook (when it has one); resolves after delivery. */
  async complete(id: string) {
    const r = this.requests.get(id);
    if (!r) throw new Error(`no request ${id}`);
    r.state = "COMPLETED";
    return this.deliver(r);
  }

  protected accept(s: FalSubmission) {
    const behaviour = this.behaviours.get(s.endpointId) ?? {};
    const r: QueuedRequest = { id: randomUUID(), ...s, polls: 0, state: "IN_QUEUE", cancelled: false, behaviour };
    if (behaviour.autoComplete) setImmediate(() => void this.complete(r.id));
    return { request: r, queuePosition: this.requests.size };
  }

  protected phase(r: QueuedRequest): FalPhase {
    this.advance(r);
    const logs = [{ message: "Loading model", level: "INFO", source: "USER" as const, timestamp: new Date().toISOString() }];
    if (r.state === "IN_QUEUE") return { status: "IN_QUEUE", queuePosition: 0 };
    if (r.state === "IN_PROGRESS") return { status: "IN_PROGRESS", logs };
    return { status: "COMPLETED", logs, inferenceTimeSeconds: 1.25 };
  }

  protected async outcome(r: QueuedRequest): Promise<FalOutcome> {
    if (r.state !== "COMPLETED") return { kind: "pending" };
    if (r.cancelled) return { kind: "cancelled" };
    if (r.behaviour.error) return { kind: "error", ...r.behaviour.error };
    const out = r.behaviour.output;
    const output =
      typeof out === "function"
        ? out(r.input)
        : (out ?? { images: [{ url: `${this.base}/media/${r.id}.png`, content_type: "image/png", width: 1024, height: 1024 }], seed: 42 });
    return { kind: "output", output };
  }

  protected cancelRequest(r: QueuedRequest) {
    if (r.state === "COMPLETED") return "ALREADY_COMPLETED" as const;
    r.cancelled = true;
    if (r.state === "IN_QUEUE") {
      r.state = "COMPLETED";
      return "OK" as const;
    }
    return "CANCELLATION_REQUESTED" as const;
  }

  private advance(r: QueuedRequest) {
    if (r.state === "COMPLETED") return;
    r.polls += 1;
    const inQueue = r.behaviour.pollsInQueue ?? 1;
    const inProgress = r.behaviour.pollsInProgress ?? 1;
    r.state = r.polls <= inQueue ? "IN_QUEUE" : r.polls <= inQueue + inProgress ? "IN_PROGRESS" : "COMPLETED";
    if (r.state === "COMPLETED") void this.deliver(r);
  }
}
