import type { ServiceContext } from "@/lib/auth/context";
import { createHash } from "node:crypto";
import canonicalize from "canonicalize";
import { and, eq, lte, sql, type SQL } from "drizzle-orm";
import { z } from "zod";
import type { Db, Executor } from "@/db/client";
import { generationRequests, IDEMPOTENCY_TTL_MS, idempotencyKeys } from "@/db/schema";
import { isSandbox, type Principal } from "@/lib/auth/principal";
import { env } from "@/lib/core/env";
import { DomainError } from "@/lib/core/errors";
import { parseWith } from "@/lib/core/validation";
import { untilEnded } from "./follow";
import { failureError, stillRunningError } from "./present";
import { isFinal, type GenerationMode, type GenerationRow } from "./types";

/** The most characters an `Idempotency-Key` may have (Stripe's limit). */
export const IDEMPOTENCY_KEY_MAX_CHARS = 255;

export const idempotencyHeaders = z.object({
  "Idempotency-Key": z
    .string()
    .min(1, "Idempotency-Key must not be empty")
    .max(IDEMPOTENCY_KEY_MAX_CHARS, `Idempotency-Key must be at most ${IDEMPOTENCY_KEY_MAX_CHARS} characters`)
    .optional()
    .meta({
      description:
        "Makes a retry safe: a repeat with the same key, by the same user, of the same request (route, model, body and " +
        "query options) within 24 h answers with the first request's job — the same request id, no second charge or run; " +
        "a sync repeat waits for the job like the first request. The same key with a different request is 422 " +
        "idempotency_key_reused. Requests refused before a job existed (400, 402, 429, 503) do not keep the key. " +
        `1–${IDEMPOTENCY_KEY_MAX_CHARS} characters (else 400 invalid_params).`,
    }),
});

/**
 * `Idempotency-Key` on the generation-creating requests, as Stripe defines it: the first request
 * with a key that gets as far as creating its job records the key with that job (in the job's own
 * statement, see createGeneration), and every repeat within 24 h answers with that job — no second
 * job, reserve or provider call. The database's unique (user_id, key) decides races; a request
 * that lost one finds the winner's row and answers with its job.
 */
export type Idempotency = { key: string; fingerprint: string };

export { IDEMPOTENCY_TTL_MS };

/** What makes two requests "the same": the operation (route), model, body and behavioural query. */
export type RequestIdentity = { operation: string; modelId?: string; body: unknown; options?: Record<string, unknown> };

/**
 * The request's key (undefined without the header) and its fingerprint. A key that is empty or
 * longer than 255 characters is 400 invalid_params naming the header. Sandbox and live requests
 * differ, so a key used with a test key never replays into a live one.
 */
export function idempotencyOf(req: Request, principal: Principal, identity: RequestIdentity): Idempotency | undefined {
  const header = req.headers.get("idempotency-key");
  if (header === null) return undefined;
  const { "Idempotency-Key": key } = parseWith(idempotencyHeaders, { "Idempotency-Key": header }, "invalid_params");
  if (key === undefined) return undefined;
  const canonical = canonicalize({
    ...identity,
    modelId: identity.modelId ?? null,
    options: identity.options ?? {},
    sandbox: isSandbox(principal),
  })!;
  return { key, fingerprint: createHash("sha256").update(canonical).digest("hex") };
}

/**
 * The job a key names, or null when the key is new or older than 24 h (the expired row is deleted
 * here so the new job can take the key). The same key with another request is 422.
 */
export async function keyedGeneration(ctx: ServiceContext, idem: Idempotency): Promise<GenerationRow | null> {
  const owner = and(eq(idempotencyKeys.userId, ctx.principal.userId), eq(idempotencyKeys.key, idem.key));
  const [hit] = await ctx.db
    .select({ fingerprint: idempotencyKeys.fingerprint, createdAt: idempotencyKeys.createdAt, job: generationRequests })
    .from(idempotencyKeys)
    .innerJoin(generationRequests, eq(generationRequests.id, idempotencyKeys.generationId))
    .where(owner);
  if (!hit) return null;
  const cutoff = new Date(Date.now() - IDEMPOTENCY_TTL_MS);
  if (hit.createdAt <= cutoff) {
    await ctx.db.delete(idempotencyKeys).where(and(owner, lte(idempotencyKeys.createdAt, cutoff)));
    return null;
  }
  if (hit.fingerprint !== idem.fingerprint) {
    throw new DomainError(
      "idempotency_key_reused",
      "This Idempotency-Key was already used for a different request (route, model, body or options); send a new key for a new request",
    );
  }
  return hit.job;
}

/** The key's insert for the CTE that creates the job: one row per row of `jobs` (the new job). */
export function keyInsertFor(jobs: string, idem: Idempotency, createdAt: Date): SQL {
  return sql`insert into ${idempotencyKeys} (user_id, key, fingerprint, generation_id, created_at)
    select j.user_id, ${idem.key}::text, ${idem.fingerprint}::text, j.id, ${createdAt.toISOString()}::timestamptz from ${sql.identifier(jobs)} j
    returning 1 as n`;
}

/**
 * A repeat's answer, as the first request would give it. Queue: the job as it is now. Sync: the
 * job once final — its result, or its failure's error — waiting for a running one until the
 * repeat's own sync wait (RUN_SYNC_TIMEOUT_MS from `startedAtMs`) runs out, then 504 `timeout`
 * with the request id, as a first request's wait ends. The first request keeps running the job.
 */
export async function replayGeneration(
  db: Db,
  row: GenerationRow,
  mode: GenerationMode,
  startedAtMs: number,
  signal?: AbortSignal,
): Promise<GenerationRow> {
  if (mode === "queue") return row;
  // The job may be run by another instance (or taken over from a dead one): its ending's notice wakes this wait.
  const final = (await untilEnded(db, row.id, { deadlineMs: startedAtMs + env().RUN_SYNC_TIMEOUT_MS, signal })) ?? row;
  if (!isFinal(final.status)) throw stillRunningError(final.id);
  if (final.status === "completed") return final;
  throw failureError(final);
}

/** Deletes keys past the 24 h window (they are already ignored); returns how many. */
export async function pruneIdempotencyKeys(db: Executor, asOf = Date.now()): Promise<number> {
  const gone = await db
    .delete(idempotencyKeys)
    .where(lte(idempotencyKeys.createdAt, new Date(asOf - IDEMPOTENCY_TTL_MS)))
    .returning({ key: idempotencyKeys.key });
  return gone.length;
}
