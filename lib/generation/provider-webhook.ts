import { and, eq } from "drizzle-orm";
import { relaxedOf, type Db } from "@/db/client";
import { generationRequests, inboundEvents } from "@/db/schema";
import { inngest } from "@/lib/jobs/client";
import { generationProviderCompleted } from "@/lib/jobs/events";
import { rehostResult, type WrittenAsset } from "@/lib/assets/rehost";
import { log } from "@/lib/core/logger";
import { readBodyBytes, UNVERIFIED_BODY_MAX_BYTES } from "@/lib/net/body";
import { fetchProviderMedia, verifyProviderWebhook, webhookScheme, type ProviderResult, type ProviderWebhookEvent } from "@/lib/provider";
import { progressEvent } from "./event-log";
import { finalizeGeneration } from "./finalize";
import { cachedModelRow } from "@/lib/catalog/get";
import { failureOutcome, providerOf, refOf } from "./provider-calls";
import { NOTHING_UNRECORDED } from "./run-journal";
import { isFinal, type GenerationOutcome, type GenerationRow } from "./types";

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
 * and is answered `deduped` with no side effect. A request no job knows is `unmapped`. Otherwise
 * the result is re-hosted, the job ends through the one finalize (settle or refund), and the run
 * waiting for the provider is woken.
 */
export async function handleProviderWebhook(db: Db, req: Request): Promise<WebhookAnswer> {
  // Unsigned or stale: refused from the headers, unread. Signed: read up to 1 MiB, then verified.
  webhookScheme(req.headers);
  const body = await readBodyBytes(req, UNVERIFIED_BODY_MAX_BYTES);
  const event = await verifyProviderWebhook({ headers: req.headers, body });
  const externalId = `${event.provider}:${event.providerRequestId}`;
  const [recorded] = await db
    .insert(inboundEvents)
    .values({ source: "provider", externalId, payload: event.body })
    .onConflictDoNothing()
    .returning({ id: inboundEvents.id });
  if (!recorded) {
    const [prior] = await db
      .select({ result: inboundEvents.result })
      .from(inboundEvents)
      .where(and(eq(inboundEvents.source, "provider"), eq(inboundEvents.externalId, externalId)));
    const previous = (prior?.result ?? {}) as Partial<WebhookAnswer>;
    return { ok: true, status: previous.status ?? "received", deduped: true, unmapped: previous.unmapped ?? false, assets: noAssets };
  }
  const answer = await handle(db, event);
  await db.update(inboundEvents).set({ handledAt: new Date(), result: answer }).where(eq(inboundEvents.id, recorded.id));
  return answer;
}

async function handle(db: Db, event: ProviderWebhookEvent): Promise<WebhookAnswer> {
  const [job] = await db
    .select()
    .from(generationRequests)
    .where(and(eq(generationRequests.provider, event.provider), eq(generationRequests.providerRequestId, event.providerRequestId)))
    .limit(1);
  if (!job)
    return { ok: true, status: event.body.status === "OK" ? "completed" : "failed", deduped: false, unmapped: true, assets: noAssets };
  if (isFinal(job.status)) return { ok: true, status: job.status, deduped: false, unmapped: false, assets: noAssets };
  // The copies' `stored` marks are left to the ending's statement, as a run's journal leaves them.
  const written: WrittenAsset[] = [];
  const { outcome, assets } = await outcomeOfWebhook(db, job, event, written);
  // The result was copied here (unless passthrough): the ending records `storing` before `completed`, as a run's journal does.
  const rehosted = outcome.kind === "completed" && !job.passthrough;
  const { row } = await finalizeGeneration(
    db,
    job,
    outcome,
    rehosted ? { ...NOTHING_UNRECORDED, events: [progressEvent("storing")], written } : NOTHING_UNRECORDED,
  );
  await inngest
    .send({ name: generationProviderCompleted.name, data: { generationId: job.id } })
    .catch((error) => log.warn("could not wake the generation run", { generationId: job.id, error }));
  return { ok: true, status: row.status, deduped: false, unmapped: false, assets };
}

async function outcomeOfWebhook(
  db: Db,
  job: GenerationRow,
  event: ProviderWebhookEvent,
  written: WrittenAsset[],
): Promise<{ outcome: GenerationOutcome; assets: WebhookAnswer["assets"] }> {
  let result: ProviderResult;
  if (event.outcome.kind === "completed") result = { ok: true, output: event.outcome.output };
  else if (event.outcome.kind === "failed") result = { ok: false, error: event.outcome.error };
  else {
    const model = await cachedModelRow(db, job.modelId);
    try {
      result = await providerOf(job).result(refOf(job, model ?? { alias: job.modelId }));
    } catch (err) {
      return { outcome: failureOutcome(err), assets: noAssets };
    }
  }
  if (!result.ok) return { outcome: failureOutcome(result.error), assets: noAssets };
  // Asynchronous commits, as a run's copies (provider-calls' rehostOutput): the ending's commit makes them durable.
  const hosted = await rehostResult(relaxedOf(db), result.output, {
    userId: job.userId,
    generationId: job.id,
    falRequestId: job.providerRequestId,
    passthrough: job.passthrough,
    readMedia: fetchProviderMedia,
    deferStored: (asset) => (written.push(asset), true),
  });
  return { outcome: { kind: "completed", providerOutput: result.output, output: hosted.output }, assets: hosted.counts };
}
