import { log } from "@/lib/core/logger";
import { standardWebhookSigner } from "@/lib/provider/webhook-verify";
import { localProviderSecret } from "./secret";
import type { LocalStore, Row } from "./store";

/**
 * The simulator's completion webhooks, sent like fal sends its own: a POST of fal's payload shape
 * to the `fal_webhook` URL when the request completes, retried with growing pauses (about two
 * hours in all), at least once. The due time lives in the database, so deliveries owed before a
 * restart are sent after it (`sweep`). Signed per Standard Webhooks with the local secret;
 * `webhook-id` is the provider request id, so a receiver can dedupe redeliveries.
 */
export type DeliveryOptions = {
  now: () => number;
  fetch: typeof fetch;
  /** First pause after a failed attempt; each next one is 3× longer, capped at 30 minutes. */
  retryBaseMs: number;
  maxAttempts: number;
  timeoutMs: number;
};

const LEASE_MS = 60_000;
const SWEEP_EVERY_MS = 30_000;
const HORIZON_MS = 5 * 60_000;

export class WebhookSender {
  private timers = new Map<string, ReturnType<typeof setTimeout>>();
  private sweeper: ReturnType<typeof setInterval> | null = null;
  private inflight = new Set<Promise<void>>();

  constructor(
    private readonly store: LocalStore,
    private readonly bodyOf: (row: Row) => Promise<Record<string, unknown>>,
    private readonly options: DeliveryOptions,
  ) {}

  /** Resumes owed deliveries now and keeps looking for due ones every 30 s. */
  start(): void {
    if (this.sweeper) return;
    this.sweeper = setInterval(
      () => void this.sweep().catch((err) => log.warn("webhook sweep failed", { error: String(err) })),
      SWEEP_EVERY_MS,
    );
    this.sweeper.unref?.();
    void this.sweep().catch((err) => log.warn("webhook sweep failed", { error: String(err) }));
  }

  stop(): void {
    if (this.sweeper) clearInterval(this.sweeper);
    this.sweeper = null;
    for (const t of this.timers.values()) clearTimeout(t);
    this.timers.clear();
  }

  /** Waits for deliveries under way (tests, shutdown). */
  async idle(): Promise<void> {
    while (this.inflight.size) await Promise.allSettled([...this.inflight]);
  }

  schedule(id: string, dueAt: number): void {
    if (this.timers.has(id)) return;
    const timer = setTimeout(
      () => {
        this.timers.delete(id);
        this.track(this.deliver(id, dueAt));
      },
      Math.max(0, dueAt - this.options.now()),
    );
    timer.unref?.();
    this.timers.set(id, timer);
  }

  /** Schedules every pending delivery due within the next few minutes. */
  async sweep(): Promise<void> {
    const due = await this.store.pendingDeliveries(new Date(this.options.now() + HORIZON_MS), 500);
    for (const row of due) this.schedule(row.id, row.webhookNextAt?.getTime() ?? this.options.now());
  }

  /** Sends every delivery due now and waits for them (tests and start-up). */
  async deliverDue(): Promise<void> {
    const due = await this.store.pendingDeliveries(new Date(this.options.now()), 500);
    await Promise.all(due.map((row) => this.track(this.deliver(row.id))));
  }

  private track(p: Promise<void>): Promise<void> {
    const tracked = p.catch((err) => log.error("webhook delivery crashed", { error: err }));
    this.inflight.add(tracked);
    void tracked.finally(() => this.inflight.delete(tracked));
    return tracked;
  }

  /**
   * `dueAt`: the time its timer was set for. A timer may fire a millisecond before the clock reads
   * it, and a claim "not yet due" would leave the webhook to the next sweep, up to 30 s later.
   */
  private async deliver(id: string, dueAt = 0): Promise<void> {
    const now = Math.max(this.options.now(), dueAt);
    const row = await this.store.claimDelivery(id, new Date(now), LEASE_MS);
    if (!row || !row.webhookUrl) return; // another instance has it, or it is no longer owed
    const body = JSON.stringify(await this.bodyOf(row));
    // The signature's timestamp is transport freshness: always the wall clock.
    const sentAt = new Date();
    const headers = {
      "content-type": "application/json",
      "user-agent": "generation-gateway-local-provider",
      "webhook-id": row.id,
      "webhook-timestamp": String(Math.floor(sentAt.getTime() / 1000)),
      "webhook-signature": standardWebhookSigner(localProviderSecret()).sign(row.id, sentAt, body),
    };
    let error: string | null = null;
    try {
      const res = await this.options.fetch(row.webhookUrl, {
        method: "POST",
        headers,
        body,
        signal: AbortSignal.timeout(this.options.timeoutMs),
      });
      await res.body?.cancel().catch(() => {});
      if (res.ok) {
        await this.store.recordDelivery(id, "delivered", null, null);
        return;
      }
      error = `receiver answered ${res.status}`;
    } catch (err) {
      error = err instanceof Error ? `${err.name}: ${err.message}` : String(err);
    }
    if (row.webhookAttempts >= this.options.maxAttempts) {
      log.warn("local provider gave up on a webhook", { providerRequestId: id, attempts: row.webhookAttempts, error });
      await this.store.recordDelivery(id, "failed", null, error);
      return;
    }
    const pause = Math.min(30 * 60_000, this.options.retryBaseMs * 3 ** (row.webhookAttempts - 1));
    const next = this.options.now() + pause;
    await this.store.recordDelivery(id, "pending", new Date(next), error);
    this.schedule(id, next);
  }
}
