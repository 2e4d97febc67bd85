import { and, asc, eq, getTableColumns, inArray, isNull, lt, lte, ne, sql } from "drizzle-orm";
import { preparedQuery } from "@/db/prepared";
import { getDb, relaxedOf } from "@/db/client";
import { localProviderRequests, type LocalProviderRequest, type LocalWebhookState } from "@/db/schema/provider";

/**
 * The simulator's submissions, in the database so they survive a restart and are visible to every
 * instance. Rows that can no longer change (finished, cancelled or past their webhook) are kept in
 * a bounded in-memory map, so a zero-latency request costs one insert and no reads.
 */
export type Row = LocalProviderRequest;

const MAX_CACHED = 5_000;

// Every simulated request runs it: built once per database handle (db/prepared). Values go in
// as the driver takes them (mapped here: drizzle's placeholder mapping does not pass nulls).
const COLUMNS = getTableColumns(localProviderRequests);
const insertRequest = preparedQuery((db) =>
  db
    .insert(localProviderRequests)
    .values(Object.fromEntries(Object.keys(COLUMNS).map((c) => [c, sql`${sql.placeholder(c)}`])) as never)
    .prepare("local_request_insert"),
);
const driverValues = (row: Row) =>
  Object.fromEntries(
    Object.entries(COLUMNS).map(([key, column]) => {
      const value = row[key as keyof Row];
      return [key, value === null || value === undefined ? null : column.mapToDriverValue(value)];
    }),
  );

export class LocalStore {
  private cache = new Map<string, Row>();

  async insert(row: Row): Promise<void> {
    // Asynchronous commit (relaxedOf): the row is visible at once and survives any restart of the
    // app; only a crash of PostgreSQL itself within a fraction of a second could lose it (the
    // engine then sees not_found and refunds). It spares a synchronous fsync per simulated
    // request, most of the simulator's cost at low concurrency (3.9 → 1.4 ms at concurrency 1).
    await insertRequest(relaxedOf(await getDb())).execute(driverValues(row));
    this.remember(row);
  }

  /** `isSettled(row)` says whether a cached copy can be trusted (nothing can change it any more). */
  async get(id: string, isSettled: (row: Row) => boolean): Promise<Row | null> {
    const cached = this.cache.get(id);
    if (cached && isSettled(cached)) return cached;
    const db = await getDb();
    const [row] = await db.select().from(localProviderRequests).where(eq(localProviderRequests.id, id)).limit(1);
    if (row) this.remember(row);
    return row ?? null;
  }

  /** Marks a request cancelled unless it already is; returns the updated row, or null. */
  async cancel(id: string, at: Date): Promise<Row | null> {
    const db = await getDb();
    const t = localProviderRequests;
    const [row] = await db
      .update(t)
      .set({
        cancelledAt: at,
        webhookState: sql`case when ${t.webhookState} = 'pending' then 'cancelled' else ${t.webhookState} end`,
      })
      .where(and(eq(t.id, id), isNull(t.cancelledAt)))
      .returning();
    if (row) this.remember(row);
    return row ?? null;
  }

  /**
   * Takes the right to send a due webhook: one instance wins, and the lease (pushing
   * `webhook_next_at` forward) keeps others off until it reports back or dies.
   */
  async claimDelivery(id: string, now: Date, leaseMs: number): Promise<Row | null> {
    const db = await getDb();
    const t = localProviderRequests;
    const [row] = await db
      .update(t)
      .set({ webhookNextAt: new Date(now.getTime() + leaseMs), webhookAttempts: sql`${t.webhookAttempts} + 1` })
      .where(and(eq(t.id, id), eq(t.webhookState, "pending"), lte(t.webhookNextAt, now)))
      .returning();
    return row ?? null;
  }

  async recordDelivery(id: string, state: LocalWebhookState, nextAt: Date | null, error: string | null): Promise<void> {
    const db = await getDb();
    const t = localProviderRequests;
    await db.update(t).set({ webhookState: state, webhookNextAt: nextAt, webhookLastError: error }).where(eq(t.id, id));
    this.cache.delete(id);
  }

  /** Pending webhooks due before `until`, soonest first. */
  async pendingDeliveries(until: Date, limit: number): Promise<Pick<Row, "id" | "webhookNextAt">[]> {
    const db = await getDb();
    const t = localProviderRequests;
    return db
      .select({ id: t.id, webhookNextAt: t.webhookNextAt })
      .from(t)
      .where(and(eq(t.webhookState, "pending"), lte(t.webhookNextAt, until)))
      .orderBy(asc(t.webhookNextAt))
      .limit(limit);
  }

  /**
   * Retention: forgets requests submitted before `before` (unless a webhook is still owed), at
   * most `limit` per call. Like a provider's result retention, but generous: a week.
   */
  async prune(before: Date, limit: number): Promise<number> {
    const db = await getDb();
    const t = localProviderRequests;
    const old = db
      .select({ id: t.id })
      .from(t)
      .where(and(lt(t.submittedAt, before), ne(t.webhookState, "pending")))
      .orderBy(asc(t.submittedAt))
      .limit(limit);
    const deleted = await db.delete(t).where(inArray(t.id, old)).returning({ id: t.id });
    for (const { id } of deleted) this.cache.delete(id);
    return deleted.length;
  }

  private remember(row: Row) {
    this.cache.delete(row.id);
    this.cache.set(row.id, row);
    if (this.cache.size > MAX_CACHED) this.cache.delete(this.cache.keys().next().value!);
  }

  forget() {
    this.cache.clear();
  }
}
