import { and, asc, eq, inArray, lte, sql } from "drizzle-orm";
import { rawRows, type Db, type Executor as Queryable, type Tx } from "@/db/client";
import { jobRunOps, jobRuns, type ConcurrencySlot, type JobEvent, type JobRunStatus, type MemoizedStep } from "@/db/schema";
import { ACTIVE, at, json, type ClaimedRun, type OpRow, type RunRow } from "./shared";

export type ClaimOptions = { now: number; limit: number; leaseMs: number; owner: string; blockedRecheckMs: number };

/**
 * Claims due runs for this executor. One statement claims those without concurrency limits (the
 * common case) and reports the others, which go through claimLimited in a transaction.
 */
export async function claimRuns(db: Db, opts: ClaimOptions): Promise<ClaimedRun[]> {
  const now = at(opts.now).toISOString();
  const rows = await rawRows<{ row: Record<string, unknown> | null; ops: unknown; limited_id: string | null }>(
    db,
    sql`
    with c as (
      select id, concurrency is not null as limited from ${jobRuns}
      where status in ('queued', 'running', 'sleeping', 'waiting', 'blocked') and next_at <= ${now}::timestamptz
      order by next_at limit ${opts.limit} for update skip locked
    ), u as (
      update ${jobRuns} r set
        status = 'running', claims = r.claims + 1, lease = ${opts.owner} || ':' || (r.claims + 1),
        next_at = ${at(opts.now + opts.leaseMs).toISOString()}::timestamptz,
        started_at = coalesce(r.started_at, ${now}::timestamptz), wake = false
      from c where r.id = c.id and not c.limited
      returning to_jsonb(r.*) as row,
        (select coalesce(jsonb_agg(to_jsonb(o.*)), '[]'::jsonb) from ${jobRunOps} o where o.run_id = r.id) as ops
    )
    select row, ops, null::text as limited_id from u
    union all
    select null::jsonb, null::jsonb, id from c where limited`,
  );
  const claimed: ClaimedRun[] = rows.filter((r) => r.row).map((r) => ({ ...claimedFromJson(r.row!), ops: opsFromJson(r.ops) }));
  const limited = rows.map((r) => r.limited_id).filter((id): id is string => !!id);
  if (limited.length) claimed.push(...(await db.transaction((tx) => claimLimited(tx, limited, opts))));
  return claimed;
}

/**
 * Claims runs that have concurrency slots, under an advisory lock per slot, so two executors (or
 * two claims) can never both admit a run past its limit; a run over its limit is parked as
 * `blocked` until a slot frees (promoteBlocked) or its recheck.
 */
async function claimLimited(tx: Tx, ids: string[], opts: ClaimOptions): Promise<ClaimedRun[]> {
  const { now } = opts;
  const candidates = await tx
    .select({ id: jobRuns.id, concurrency: jobRuns.concurrency })
    .from(jobRuns)
    .where(and(inArray(jobRuns.id, ids), inArray(jobRuns.status, ACTIVE), lte(jobRuns.nextAt, at(now))))
    .orderBy(asc(jobRuns.nextAt))
    .for("update", { skipLocked: true });
  if (!candidates.length) return [];
  const keys = [...new Set(candidates.flatMap((c) => (c.concurrency ?? []).map((s) => s.key)))].sort();
  const running = new Map<string, number>();
  // Sorted, so two claimers always take the locks in the same order (no deadlock).
  for (const key of keys) await tx.execute(sql`select pg_advisory_xact_lock(hashtextextended(${`gw-jobs|${key}`}, 0))`);
  const counts = await rawRows<{ key: string; n: number }>(
    tx,
    sql`select s->>'key' as key, count(*)::int as n
        from ${jobRuns} r, jsonb_array_elements(r.concurrency) s
        where r.status = 'running' and r.next_at > ${at(now).toISOString()}::timestamptz
          and s->>'key' in (${sql.join(
            keys.map((k) => sql`${k}`),
            sql`, `,
          )})
        group by 1`,
  );
  for (const { key, n } of counts) running.set(key, Number(n));
  const claimed: ClaimedRun[] = [];
  for (const candidate of candidates) {
    const slots = candidate.concurrency ?? [];
    if (slots.some((s) => (running.get(s.key) ?? 0) >= s.limit)) {
      await tx
        .update(jobRuns)
        .set({ status: "blocked", nextAt: at(now + opts.blockedRecheckMs), lease: null })
        .where(eq(jobRuns.id, candidate.id));
      continue;
    }
    for (const s of slots) running.set(s.key, (running.get(s.key) ?? 0) + 1);
    const [row] = await tx
      .update(jobRuns)
      .set({
        status: "running",
        claims: sql`${jobRuns.claims} + 1`,
        lease: sql`${opts.owner} || ':' || (${jobRuns.claims} + 1)`,
        nextAt: at(now + opts.leaseMs),
        startedAt: sql`coalesce(${jobRuns.startedAt}, ${at(now).toISOString()}::timestamptz)`,
        wake: false,
      })
      .where(eq(jobRuns.id, candidate.id))
      .returning();
    if (row) claimed.push({ ...row, fresh: row.claims === 1 });
  }
  return claimed;
}

/** The run's pending ops as the claim read them (`to_jsonb` rows), so the driver need not. */
function opsFromJson(raw: unknown): OpRow[] {
  const list = (typeof raw === "string" ? JSON.parse(raw) : (raw ?? [])) as Record<string, unknown>[];
  return list.map((o) => ({
    runId: o.run_id as string,
    stepId: o.step_id as string,
    kind: o.kind as OpRow["kind"],
    displayName: (o.display_name ?? null) as string | null,
    eventName: (o.event_name ?? null) as string | null,
    expression: (o.expression ?? null) as string | null,
    matchValue: (o.match_value ?? null) as string | null,
    dueAt: date(o.due_at)!,
    attempt: o.attempt as number,
    createdAt: date(o.created_at)!,
  }));
}

const date = (v: unknown) => (v === null || v === undefined ? null : new Date(v as string));

/** A run row as `to_jsonb` renders it (snake_case, timestamps as text). */
function claimedFromJson(j: Record<string, unknown>): ClaimedRun {
  const row: RunRow = {
    id: j.id as string,
    functionId: j.function_id as string,
    eventId: j.event_id as string,
    event: j.event as JobEvent,
    status: j.status as JobRunStatus,
    steps: (j.steps ?? {}) as Record<string, MemoizedStep>,
    stack: (j.stack ?? []) as string[],
    attempt: j.attempt as number,
    maxAttempts: j.max_attempts as number,
    parallel: j.parallel as boolean,
    wake: j.wake as boolean,
    nextAt: date(j.next_at),
    lease: j.lease as string | null,
    claims: j.claims as number,
    concurrency: (j.concurrency ?? null) as ConcurrencySlot[] | null,
    idempotencyKey: (j.idempotency_key ?? null) as string | null,
    output: j.output ?? null,
    error: j.error ?? null,
    createdAt: date(j.created_at)!,
    startedAt: date(j.started_at),
    finishedAt: date(j.finished_at),
  };
  return { ...row, fresh: row.claims === 1 };
}

/** Lets the oldest run blocked on each freed slot try again now; returns how many. */
export async function promoteBlocked(tx: Queryable, slots: ConcurrencySlot[] | null, now: number): Promise<number> {
  let promoted = 0;
  for (const slot of slots ?? []) {
    const rows = await rawRows<{ id: string }>(
      tx,
      sql`
      update ${jobRuns} set status = 'queued', next_at = ${at(now).toISOString()}::timestamptz
      where id = (
        select id from ${jobRuns}
        where status = 'blocked' and concurrency @> ${json([{ key: slot.key }])}
        order by created_at limit 1 for update skip locked
      )
      returning id`,
    );
    promoted += rows.length;
  }
  return promoted;
}
