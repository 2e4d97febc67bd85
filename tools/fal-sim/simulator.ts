import { createHash, randomBytes, randomUUID } from "node:crypto";
import type { IncomingMessage, ServerResponse } from "node:http";
import { behaviourOf, formatFailure } from "@/simulators/local-provider/behaviour";
import { checkMediaLink, MEDIA_PREFIX, renderMedia } from "@/simulators/local-provider/media-url";
import { LOCAL_MODELS, localModelSchema } from "@/simulators/local-provider/models";
import { OutputCache } from "@/simulators/local-provider/output-cache";
import { simulatorSettings, type SimulatorSettings } from "@/simulators/local-provider/latency-profile";
import { completesAt, failureOf, logsAt, phaseAt, queueMsOf, runMsOf, type TimelineRow } from "@/simulators/local-provider/timeline";
import { webhookBodyOf } from "./answers";
import { falOpenApi, type FalModelFixture } from "./platform";
import {
  FalQueueServer,
  type FalOutcome,
  type FalPhase,
  type FalQueued,
  type FalSubmission,
  type Scripted,
  type WebhookDelivery,
} from "./protocol";

/**
 * The local simulator behind fal's wire format (`npm run sim:fal`): the same behaviour as
 * PROVIDER=local — prompt markers (`[latency:N]`, `[fail:…]`), LOCAL_PROVIDER_MODELS, the latency
 * profile and error rate, the timeline (queue, steps, logs), the outputs and their real media
 * bytes — so `PROVIDER=fal` with FAL_QUEUE_URL pointed here runs the real fal client end to end.
 * Requests live in memory (fal keeps results for an hour; so does this). Media links point at
 * this server and are signed with its own secret, so the app downloads them like fal's CDN files.
 * `X-Fal-Request-Timeout` on a submit is a deadline to start (notes/fal.md §2): a request still
 * queued then ends unstarted, its status COMPLETED with the error, its result fal's 504 with
 * `X-Fal-Request-Timeout-Type: user`; it never runs (no logs, no run time).
 */
export type FalSimulatorOptions = {
  /** The FAL_KEY it accepts (`Authorization: Key <key>`). */
  key: string;
  settings?: SimulatorSettings;
  random?: () => number;
  now?: () => number;
  /** Signs its media links (default: random per process). */
  mediaSecret?: string;
  /** fal retries a failed webhook 10 times over about two hours. */
  webhookAttempts?: number;
  webhookRetryBaseMs?: number;
  /** One line per event (submits, refusals, results, webhooks); default silent. */
  log?: (line: string) => void;
  /** Extra queue time before every request starts (a slow fal, to make start deadlines pass); default 0. */
  startDelayMs?: number;
};

type SimRequest = FalQueued & TimelineRow & { resultFetches: number; startDeadlineAt: number | null };

/** What fal answers for a request whose start deadline passed (notes/fal.md §2, §8). */
const TIMED_OUT = { detail: "Request timed out", error_type: "request_timeout" } as const;

/** When the request ended unstarted at its deadline: the deadline passed in the queue, before any cancel. */
function expiresAt(r: SimRequest): number | null {
  const deadline = r.startDeadlineAt;
  if (deadline === null || deadline >= r.submittedAt.getTime() + queueMsOf(r)) return null;
  return r.cancelledAt && r.cancelledAt.getTime() < deadline ? null : deadline;
}

/** When it ends (or ended): at its start deadline, or as the timeline says; null for never. */
function endOf(r: SimRequest): number | null {
  const expiry = expiresAt(r);
  if (expiry !== null) return expiry;
  const end = completesAt(r);
  const cancelled = r.cancelledAt?.getTime() ?? null;
  return cancelled !== null && (end === null || cancelled < end) ? cancelled : end;
}

const expiredBy = (r: SimRequest, now: number) => {
  const expiry = expiresAt(r);
  return expiry !== null && now >= expiry;
};

const RETENTION_MS = 60 * 60 * 1000;

/** How fal's ingress answers when it is overloaded: no request id, no `detail` (retryable). */
const unavailable = (): Scripted => ({
  status: 503,
  body: "<html><head><title>503 Service Temporarily Unavailable</title></head><body><center><h1>503 Service Temporarily Unavailable</h1></center><hr><center>nginx</center></body></html>",
  headers: { "retry-after": "1" },
});
const rateLimited = (): Scripted => ({
  status: 429,
  body: { detail: "Too many requests; retry later", error_type: "rate_limited" },
  headers: { "retry-after": "1", "x-fal-error-type": "rate_limited" },
});

export class FalSimulator extends FalQueueServer<SimRequest> {
  private readonly settings: SimulatorSettings;
  private readonly random: () => number;
  private readonly now: () => number;
  private readonly mediaSecret: string;
  private readonly log: (line: string) => void;
  private readonly startDelayMs: number;
  // "Fail the first N submits" markers count attempts of the same submission (endpoint + body);
  // an accepted one resets its count, so the same prompt sent again fails again.
  private submitAttempts = new Map<string, number>();
  private readonly outputs: OutputCache;

  constructor(options: FalSimulatorOptions) {
    super({
      key: options.key,
      userId: "fal-sim-user",
      queuePrefix: "",
      webhookAttempts: options.webhookAttempts ?? 10,
      webhookRetryBaseMs: options.webhookRetryBaseMs ?? 2_000,
    });
    this.settings = options.settings ?? simulatorSettings();
    this.random = options.random ?? Math.random;
    this.now = options.now ?? Date.now;
    this.mediaSecret = options.mediaSecret ?? randomBytes(32).toString("hex");
    this.log = options.log ?? (() => {});
    this.startDelayMs = options.startDelayMs ?? 0;
    this.outputs = new OutputCache({ now: this.now, links: () => ({ base: this.base, secret: this.mediaSecret }) });
    this.models = LOCAL_MODELS.map((m): FalModelFixture => {
      const schema = localModelSchema(m.endpointId);
      const name = m.endpointId
        .split("/")
        .map((p) => p.replace(/(^|[^a-z0-9])([a-z0-9])/gi, (_, __, c: string) => c.toUpperCase()))
        .join("");
      return {
        endpointId: m.endpointId,
        metadata: {
          display_name: m.displayName,
          category: m.category,
          description: m.description,
          status: "active",
          tags: m.tags,
          license_type: m.licenseType ?? null,
        },
        openapi: falOpenApi(m.endpointId, name, schema.input, schema.output),
        price: { unit_price: Number(m.price!.unitPrice), unit: m.price!.unit, currency: m.price!.currency },
      };
    });
  }

  async listen(options: { port?: number; host?: string; publicUrl?: string } = {}): Promise<this> {
    await super.listen(options);
    this.later(60_000, () => this.prune());
    return this;
  }

  protected accept(s: FalSubmission) {
    const behaviour = behaviourOf(s.endpointId, s.input, { settings: this.settings, random: this.random, simulator: "fal" });
    const failure = behaviour.failure;
    const key = createHash("sha256").update(`${s.endpointId}\n${s.body}`).digest("hex");
    if (failure && (failure.mode === "provider" || failure.mode === "rate_limit")) {
      const attempt = (this.submitAttempts.get(key) ?? 0) + 1;
      this.submitAttempts.set(key, attempt);
      if (failure.times === null || attempt <= failure.times) {
        this.log(`submit ${s.endpointId} refused: ${failure.mode === "rate_limit" ? 429 : 503} (attempt ${attempt})`);
        return { refuse: failure.mode === "rate_limit" ? rateLimited() : unavailable() };
      }
    }
    this.submitAttempts.delete(key);
    const kept = failure && failure.mode !== "provider" && failure.mode !== "rate_limit" ? formatFailure(failure) : null;
    const r: SimRequest = {
      ...s,
      id: randomUUID(),
      latencyMs: behaviour.latencyMs,
      failure: kept,
      submittedAt: new Date(this.now()),
      cancelledAt: null,
      startDelayMs: behaviour.startDelayMs ?? this.startDelayMs,
      startDeadlineAt: s.requestTimeoutMs === null ? null : this.now() + s.requestTimeoutMs,
      resultFetches: 0,
    };
    const end = endOf(r);
    if (r.webhookUrl && end !== null) this.later(Math.max(0, end - this.now()), () => void this.sendWebhook(r));
    const notes = [
      kept ? `fail:${kept}` : "",
      r.startDelayMs ? `start delay ${r.startDelayMs} ms` : "",
      s.requestTimeoutMs !== null ? `start within ${s.requestTimeoutMs} ms${expiresAt(r) !== null ? ": will time out" : ""}` : "",
      r.webhookUrl ? "webhook" : "",
    ].filter(Boolean);
    this.log(`submit ${s.endpointId} → ${r.id} (latency ${r.latencyMs} ms${notes.map((n) => `, ${n}`).join("")})`);
    const phase = phaseAt(r, this.now());
    return { request: r, queuePosition: phase.state === "IN_QUEUE" ? phase.queuePosition : 0 };
  }

  protected phase(r: SimRequest): FalPhase {
    const now = this.now();
    // fal reports every ending as COMPLETED, a failed one with its error (notes/fal.md §2).
    if (expiredBy(r, now))
      return { status: "COMPLETED", logs: [], inferenceTimeSeconds: null, error: TIMED_OUT.detail, errorType: TIMED_OUT.error_type };
    const phase = phaseAt(r, now);
    const logs = logsAt(r, now).map((l) => ({ ...l, source: "USER" as const }));
    if (phase.state === "IN_QUEUE") return { status: "IN_QUEUE", queuePosition: phase.queuePosition };
    if (phase.state === "IN_PROGRESS") return { status: "IN_PROGRESS", logs };
    const failure = failureOf(r);
    if (phase.cancelled)
      return { status: "COMPLETED", logs, inferenceTimeSeconds: null, error: "Request was cancelled", errorType: "request_cancelled" };
    const inferenceTimeSeconds = runMsOf(r) / 1000;
    if (failure?.mode === "generation") {
      return {
        status: "COMPLETED",
        logs,
        inferenceTimeSeconds,
        error: "Invalid status code: 422",
        errorType: failure.errorType ?? "simulated_failure",
      };
    }
    return { status: "COMPLETED", logs, inferenceTimeSeconds };
  }

  protected async outcome(r: SimRequest, countFetch = true): Promise<FalOutcome> {
    if (expiredBy(r, this.now())) {
      const headers = { "x-fal-request-timeout-type": "user", "x-fal-error-type": TIMED_OUT.error_type };
      return { kind: "error", status: 504, body: { ...TIMED_OUT }, headers };
    }
    const phase = phaseAt(r, this.now());
    if (phase.state !== "COMPLETED") return { kind: "pending" };
    if (phase.cancelled) return { kind: "cancelled" };
    const failure = failureOf(r);
    if (failure?.mode === "result" && countFetch) {
      r.resultFetches += 1;
      if (failure.times === null || r.resultFetches <= failure.times) {
        this.log(`result ${r.id} refused: 503 (fetch ${r.resultFetches})`);
        return { kind: "unavailable", answer: unavailable() };
      }
    }
    const built = await this.outputs.get(r);
    if (built.ok) return { kind: "output", output: built.output };
    return { kind: "error", status: built.status, body: { detail: built.detail } };
  }

  async webhookBody(r: SimRequest): Promise<Record<string, unknown>> {
    // Like the local provider: a request whose result fetch fails says so instead of carrying it.
    if (failureOf(r)?.mode === "result" && !expiredBy(r, this.now())) {
      return {
        request_id: r.id,
        gateway_request_id: r.id,
        status: "OK",
        payload: null,
        payload_error: "Simulated output failure; fetch the result",
      };
    }
    return webhookBodyOf(r, await this.outcome(r, false));
  }

  protected cancelRequest(r: SimRequest) {
    const phase = phaseAt(r, this.now());
    if (phase.state === "COMPLETED" || expiredBy(r, this.now())) return "ALREADY_COMPLETED" as const;
    r.cancelledAt = new Date(this.now());
    this.log(`cancel ${r.id} (${phase.state})`);
    return phase.state === "IN_QUEUE" ? ("OK" as const) : ("CANCELLATION_REQUESTED" as const);
  }

  protected onDelivery(d: WebhookDelivery, attempt: number) {
    this.log(`webhook ${d.requestId} attempt ${attempt} → ${d.status ?? "no answer"}`);
  }

  protected async handleOther(req: IncomingMessage, res: ServerResponse, url: URL): Promise<boolean> {
    const method = req.method ?? "GET";
    if (method !== "GET" && method !== "HEAD") return false;
    if (url.pathname === "/" || url.pathname === "/health") {
      res.writeHead(200, { "content-type": "application/json" });
      res.end(
        JSON.stringify({
          ok: true,
          service: "fal simulator",
          queueUrl: this.queueUrl,
          apiUrl: this.apiUrl,
          jwksUrl: this.jwksUrl,
          settings: this.settings,
        }),
      );
      return true;
    }
    if (!url.pathname.startsWith(MEDIA_PREFIX)) return false;
    const check = checkMediaLink(url.pathname, url.searchParams, Math.floor(this.now() / 1000), this.mediaSecret);
    if (!check.ok) {
      res.writeHead(404, { "content-type": "application/json" }).end(JSON.stringify({ detail: "Not Found" }));
      return true;
    }
    const { bytes, contentType } = await renderMedia(check.spec);
    res.writeHead(200, {
      "content-type": contentType,
      "content-length": String(bytes.byteLength),
      "cache-control": "public, max-age=86400, immutable",
    });
    res.end(method === "HEAD" ? undefined : Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength));
    return true;
  }

  private async sendWebhook(r: SimRequest) {
    if (r.cancelledAt) return; // cancelled: no webhook, like the local provider
    if (phaseAt(r, this.now()).state !== "COMPLETED" && !expiredBy(r, this.now())) {
      // A timer may fire a millisecond before Date.now() reaches its due time: look again then.
      const end = endOf(r);
      if (end !== null) this.later(Math.max(1, end - this.now()), () => void this.sendWebhook(r));
      return;
    }
    await this.deliver(r);
  }

  /** fal keeps a result about an hour after completion; so does this (a never-ending one, a day). */
  private prune() {
    const now = this.now();
    for (const [id, r] of this.requests) {
      const end = endOf(r) ?? r.submittedAt.getTime() + 24 * RETENTION_MS;
      if (Math.min(end, r.cancelledAt?.getTime() ?? Infinity) + RETENTION_MS < now) {
        this.requests.delete(id);
        this.outputs.delete(id);
      }
    }
    if (this.submitAttempts.size > 10_000) this.submitAttempts.clear();
    this.later(60_000, () => this.prune());
  }
}
