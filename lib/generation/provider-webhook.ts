import { and, eq } from "drizzle-orm";
import type { Db } from "@/db/client";
import { generationRequests, inboundEvents } from "@/db/schema";
import { inngest } from "@/lib/jobs/client";
import { generationProviderCompleted } from "@/lib/jobs/events";
import { log } from "@/lib/core/logger";
import { readBodyBytes, UNVERIFIED_BODY_MAX_BYTES } from "@/lib/net/body";
import { isProviderError, verifyProviderWebhook, webhookScheme, type ProviderWebhookEvent } from "@/lib/provider";
import { cachedModelRow } from "@/lib/catalog/get";
import type { ModelRow } from "@/lib/catalog/columns";
import { collect, end, failOver, lookBeforeEnd, missedStart, openJournal, resultOf, type RunResult } from "./lifecycle";
import { isFinal, type GenerationRow } from "./types";

export type WebhookAnswer = {
  ok: boolean;
  status: string;
  deduped: boolean;
  unmapped: boolean;
  assets: { found: number; uploaded: number; failed: number };
};

const noAssets = { found: 0, uploaded: 0, failed: 0 };

/**
 * POST /webhooks/provider: verified before anything is read (401 `invalid_signature`, nothing
 * recorded), then recorded in inbound_events — a redelivery hits the unique (source, external id)
 * and is answered `deduped` with no side effect, from the job's row as it stands (one write per
 * delivery: the receipt). A request no job knows is `unmapped`. Otherwise the result is
 * re-hosted, the job ends through the one finalize (settle or refund), and the run waiting for the
 * provider is cancelled.
 */
export async function handleProviderWebhook(db: Db, req: Request): Promise<WebhookAnswer> {
  // Unsigned or stale: refused from the headers, unread. Signed: read up to 1 MiB, then verified.
  webhookScheme(req.headers);
  const body = await readBodyBytes(req, UNVERIFIED_BODY_MAX_BYTES);
  const event = await verifyProviderWebhook({ headers: req.headers, body });
  const [recorded] = await db
    .insert(inboundEvents)
    .values({ source: "provider", externalId: `${event.provider}:${event.providerRequestId}`, payload: event.body })
    .onConflictDoNothing()
    .returning({ id: inboundEvents.id });
  const job = await jobOf(db, event);
  if (!recorded) {
    // Handled or being handled: its job says how it ended ("received" while the first is in flight).
    const status = !job ? statusOf(event) : isFinal(job.status) ? job.status : "received";
    return { ok: true, status, deduped: true, unmapped: !job, assets: noAssets };
  }
  return handle(db, event, job);
}

const jobOf = async (db: Db, event: ProviderWebhookEvent): Promise<GenerationRow | undefined> =>
  (
    await db
      .select()
      .from(generationRequests)
      .where(and(eq(generationRequests.provider, event.provider), eq(generationRequests.providerRequestId, event.providerRequestId)))
      .limit(1)
  )[0];

const statusOf = (event: ProviderWebhookEvent) => (event.outcome.kind === "failed" ? "failed" : "completed");

/** The webhook driver of the lifecycle (lifecycle.ts): the provider's result → collect → end. */
async function handle(db: Db, event: ProviderWebhookEvent, job: GenerationRow | undefined): Promise<WebhookAnswer> {
  if (!job) return { ok: true, status: statusOf(event), deduped: false, unmapped: true, assets: noAssets };
  if (isFinal(job.status)) return { ok: true, status: job.status, deduped: false, unmapped: false, assets: noAssets };
  const model = await cachedModelRow(db, job.modelId);
  const result = await resultFrom(event, job, model ?? { alias: job.modelId });
  // Dropped unstarted at the start deadline: on to the next route; the queued run checks on it there.
  if (model && missedStart(result)) {
    try {
      const moved = await failOver(db, job, model, { webhook: true });
      if (moved) return { ok: true, status: moved.status, deduped: false, unmapped: false, assets: noAssets };
    } catch (err) {
      // Every route left refused it: the job ends with that refusal.
      if (!isProviderError(err)) throw err;
      return answerEnded(db, job, { ok: false, error: err }, model);
    }
  }
  return answerEnded(db, job, result, model ?? { alias: job.modelId });
}

/** Ends the job with the provider's result and cancels the run waiting for it. */
async function answerEnded(db: Db, job: GenerationRow, result: RunResult, model: Pick<ModelRow, "alias">): Promise<WebhookAnswer> {
  const journal = openJournal(db, job, model);
  await lookBeforeEnd(db, job, model, journal);
  const { outcome, assets } = await collect(db, job, result, journal);
  const { row } = await end(db, job, outcome, await journal.close());
  await inngest
    .send({ name: generationProviderCompleted.name, data: { generationId: job.id } })
    .catch((error) => log.warn("could not wake the generation run", { generationId: job.id, error }));
  return { ok: true, status: row.status, deduped: false, unmapped: false, assets };
}

/** The result the webhook carries, or (a notice without it) the provider's, read now. */
async function resultFrom(event: ProviderWebhookEvent, job: GenerationRow, model: Pick<ModelRow, "alias">): Promise<RunResult> {
  if (event.outcome.kind === "completed") return { ok: true, output: event.outcome.output };
  if (event.outcome.kind === "failed") return { ok: false, error: event.outcome.error };
  try {
    return await resultOf(job, model);
  } catch (err) {
    return { ok: false, error: err };
  }
}
