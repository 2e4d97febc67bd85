import { sql, type SQL } from "drizzle-orm";
import { getDb, rawRows, relaxedOf, type Executor } from "@/db/client";
import { KEY_STANDING_COLUMNS, keyStandingOf, type KeyStanding } from "@/lib/auth/resolve";
import { log } from "@/lib/core/logger";
import { processWide } from "@/lib/core/process-wide";

/**
 * Usage counters (`request_count`, `last_request`) of keys whose rate limit is off. Such a key can
 * never be refused, so nothing has to be decided in the database on its request: the count is
 * added up here and written for every key at once, within a second, in one statement. A status
 * poll every 500 ms from 256 clients was 512 row updates a second, each a write PostgreSQL queued
 * behind the others (status p99 124–754 ms against 19–87 for `GET /health`, bench/RESULTS.md);
 * it is now one indexed read. What a crash of the process can lose is the last second of counts,
 * which are figures shown to the key's owner, never money or a limit. Keys whose limit is on keep
 * counting in the statement that decides the limit (sliding-window.ts).
 */
const FLUSH_EVERY_MS = 1_000;

type Pending = { counts: Map<string, { n: number; last: number }>; timer: ReturnType<typeof setTimeout> | null; flushing: Promise<void> };

const pending = () => processWide<Pending>("usage-counts", () => ({ counts: new Map(), timer: null, flushing: Promise.resolve() }));

/** Counts one request of the key, written with the next flush. */
export function countKeyRequestLater(apiKeyId: string, now = Date.now()): void {
  add(apiKeyId, 1, now);
}

function add(apiKeyId: string, n: number, last: number): void {
  const p = pending();
  const seen = p.counts.get(apiKeyId);
  if (seen) {
    seen.n += n;
    seen.last = Math.max(seen.last, last);
  } else p.counts.set(apiKeyId, { n, last });
  if (!p.timer) {
    p.timer = setTimeout(() => void flushUsageCounts().catch((error) => log.warn("usage counts not written", { error })), FLUSH_EVERY_MS);
    p.timer.unref?.();
  }
}

/**
 * Writes the counts added up so far (one statement for all keys; counts of a key deleted
 * meanwhile are dropped). Called by the timer, before a view of the counters is read in this
 * process, and at shutdown. A failed write puts the counts back for the next flush.
 */
export function flushUsageCounts(db?: Executor): Promise<void> {
  const p = pending();
  if (p.timer) clearTimeout(p.timer);
  p.timer = null;
  const batch = p.counts;
  p.counts = new Map();
  // Flushes run one after the other, so a view read after a flush sees every earlier count.
  p.flushing = p.flushing
    .catch(() => undefined)
    .then(async () => {
      if (batch.size === 0) return;
      const ids = [...batch.keys()];
      const ns = ids.map((id) => batch.get(id)!.n);
      const lasts = ids.map((id) => batch.get(id)!.last);
      try {
        await rawRows(
          relaxedOf(db ?? (await getDb())),
          // Rows locked in id order: two instances flushing at once wait for each other, never deadlock.
          sql`with v as (select unnest(${sql.param(ids)}::text[]) as id, unnest(${sql.param(ns)}::bigint[]) as n,
                                unnest(${sql.param(lasts)}::bigint[]) as last),
                 locked as (select k.id from api_keys k where k.id in (select id from v) order by k.id for update)
            update api_keys k set request_count = k.request_count + v.n,
              last_request = greatest(k.last_request, to_timestamp(v.last::float8 / 1000))
            from v where k.id = v.id and k.id in (select id from locked)`,
        );
      } catch (error) {
        for (const [id, c] of batch) add(id, c.n, c.last);
        throw error;
      }
    });
  return p.flushing;
}

/**
 * The key's standing (null: the key is gone) and, when given, `carry`'s first row as JSON, in one
 * read: what a request of a key whose limit is off costs the database, beside its deferred count.
 */
export async function readKeyStanding(
  db: Executor,
  apiKeyId: string,
  carry?: SQL,
): Promise<{ standing: KeyStanding | null; carried: Record<string, unknown> | null }> {
  const [row] = await rawRows<{ standing: Record<string, unknown> | null; carried: Record<string, unknown> | null }>(
    db,
    sql`with standing as (select ${KEY_STANDING_COLUMNS} from api_keys k join users u on u.id = k.user_id where k.id = ${apiKeyId})${
      carry ? sql`, carried as (${carry})` : sql``
    }
        select (select row_to_json(s) from standing s) as standing, ${
          carry ? sql`(select row_to_json(r) from carried r limit 1)` : sql`null::json`
        } as carried`,
  );
  return { standing: row?.standing ? keyStandingOf(row.standing) : null, carried: row?.carried ?? null };
}
