import { sql, type SQL, type SQLWrapper } from "drizzle-orm";
import { rawRows, relaxedOf, type Executor } from "@/db/client";
import { preparedStatement } from "@/db/prepared";
import { KEY_STANDING_COLUMNS, keyStandingOf, type KeyStanding } from "@/lib/auth/resolve";

/** The outcome of one counted request against one sliding window. */
export type LimitResult = {
  allowed: boolean;
  /** Requests allowed per window. */
  limit: number;
  /** Requests still allowed in the window right now (after this one, when it was allowed). */
  remaining: number;
  /** Epoch ms at which one more request becomes possible (the oldest slot of hits leaves the window). */
  resetAtMs: number;
  windowMs: number;
};

export type WindowInput = {
  /** Subject of the limit, e.g. `key:<id>`, `user-gen:<userId>`, `ip-webhook:<ip>`. */
  key: string;
  max: number;
  windowMs: number;
  /** Epoch ms; injectable so tests can slide the window without sleeping. */
  now?: number;
};

/**
 * A window is one row of constant size whatever its limit: the hits inside it are kept as at most
 * SLOTS + 1 slots (`times[i]`: the newest hit of slot i, epoch ms, ascending; `counts[i]`: how many
 * hits it holds). A slot spans one SLOTS-th of the window (`slotMs`, by the epoch: `time / slotMs`),
 * and all its hits leave the window together, when its newest does. So the window never holds more
 * than `max` hits in any stretch of `windowMs` (a hit is never forgotten early), hits a slot apart
 * or more leave it exactly on time, and hits closer together leave with the newest of their slot:
 * at most `slotMs` late (1 minute in an hour, 1 second in a minute). An exact log would have to
 * keep every hit (the row was `max` timestamps, rewritten on every request); GCRA, one timestamp,
 * lets a key use its whole budget again before the window has passed (up to 2 × max − 1 hits in
 * one window), where the spec's limits are sliding windows.
 */
export const SLOTS = 60;

const slotMsOf = (windowMs: number) => Math.max(1, Math.ceil(windowMs / SLOTS));

/**
 * The conditional upsert at the heart of every limit (a CTE named `hit`). The row lock taken by
 * ON CONFLICT serialises concurrent requests on the same subject, and the DO UPDATE's WHERE sees
 * the latest committed slots: the hits still inside the window are added up, and only while fewer
 * than `max` the slots that left are dropped and `now` joins its slot (a new one, or the slot of
 * its time, whose newest hit it becomes); otherwise nothing is written and no row is returned. So
 * "a row came back" is exactly "this request was allowed", on any number of app instances. Its
 * cost does not depend on `max`: at most SLOTS + 2 slots are read and written.
 */
function hitCte({ key, max, since, now, slotMs }: { key: unknown; max: unknown; since: unknown; now: unknown; slotMs: unknown }): SQL {
  return sql`hit as (
    insert into rate_limit_windows as w (key, times, counts, updated_at)
    values (${key}, array[${now}::bigint], array[1], now())
    on conflict (key) do update
      set (times, counts) = (
            select array_agg(s.t order by s.t), array_agg(s.c order by s.t)
            from (select max(l.t) as t, sum(l.c)::int as c
                  from (select t, c from unnest(w.times, w.counts) as i(t, c) where t > ${since}::bigint
                        union all select ${now}::bigint, 1) as l
                  group by l.t / ${slotMs}::bigint) as s),
          updated_at = now()
      where (select coalesce(sum(c), 0) from unnest(w.times, w.counts) as i(t, c) where t > ${since}::bigint) < ${max}::bigint
    returning (select sum(c) from unnest(counts) as c)::int as used, times[1]::float8 as oldest
  )`;
}

const hitValues = (w: Required<WindowInput>) => ({
  key: w.key,
  max: w.max,
  since: w.now - w.windowMs,
  now: w.now,
  slotMs: slotMsOf(w.windowMs),
});

/** The route rule's window and the key's counters, the statement of nearly every key request: built once. */
const hitAndCount = preparedStatement(() => {
  const p = (name: string) => sql.placeholder(name);
  return sql`with ${hitCte({ key: p("key"), max: p("max"), since: p("since"), now: p("now"), slotMs: p("slotMs") })}, counted as (${countStatement(p("apiKeyId"), p("now"))})
      select (select used from hit) as used, (select oldest from hit) as oldest, (select row_to_json(c) from counted c) as standing`;
});

/**
 * Rate-limit hits and usage counters are written on nearly every request, and waiting for the WAL
 * flush of each commit cost ~4 ms of a ~5 ms request here (bench/). They are therefore written
 * over `relaxedOf(db)` (asynchronous commit): a database crash may forget the last fraction of a
 * second of hits and counts, never corrupt them. Inside a transaction they commit with it.
 */
type HitRow = { used: number; oldest: number };

function allowedResult(row: HitRow, input: Required<WindowInput>): LimitResult {
  return {
    allowed: true,
    limit: input.max,
    remaining: Math.max(0, input.max - Number(row.used)),
    resetAtMs: Number(row.oldest) + input.windowMs,
    windowMs: input.windowMs,
  };
}

/** Read only on the refusal path: when the oldest slot inside the window leaves it. */
async function deniedResult(db: Executor, input: Required<WindowInput>): Promise<LimitResult> {
  const since = input.now - input.windowMs;
  const [row] = await rawRows<{ oldest: number | null }>(
    db,
    sql`select (select min(t) from unnest(times) as t where t > ${since}::bigint)::float8 as oldest
        from rate_limit_windows where key = ${input.key}`,
  );
  const oldest = row?.oldest == null ? input.now : Number(row.oldest);
  return { allowed: false, limit: input.max, remaining: 0, resetAtMs: oldest + input.windowMs, windowMs: input.windowMs };
}

function complete(input: WindowInput): Required<WindowInput> {
  return { ...input, now: input.now ?? Date.now() };
}

/**
 * Counts one request against a window; exact under concurrency (see hitCte). `countKey` also
 * moves that key's usage counters in the same statement, whatever the window decides (for a key
 * whose own limit is off: one round trip for both).
 */
export async function hitWindow(
  db: Executor,
  input: WindowInput & { countKey?: string | null },
): Promise<LimitResult & { standing?: KeyStanding | null }> {
  const full = complete(input);
  if (full.max <= 0) {
    const standing = input.countKey ? await countKeyRequest(db, input.countKey, full.now) : undefined;
    return { ...(await deniedResult(db, full)), ...(input.countKey ? { standing } : {}) };
  }
  if (!input.countKey) {
    const [row] = await rawRows<HitRow>(relaxedOf(db), sql`with ${hitCte(hitValues(full))} select used, oldest from hit`);
    return row ? allowedResult(row, full) : deniedResult(db, full);
  }
  // One row whatever the window decides: the key's standing comes back either way.
  const [row] = await hitAndCount<HitRow & { standing: Record<string, unknown> | null }>(relaxedOf(db), "", {
    ...hitValues(full),
    apiKeyId: input.countKey,
  });
  const standing = row!.standing ? keyStandingOf(row!.standing) : null;
  return { ...(row!.used != null ? allowedResult(row!, full) : await deniedResult(db, full)), standing };
}

/**
 * Counts a key's request (when `onlyIf` holds) and returns the key's standing (lib/auth confirms a
 * remembered lookup with it).
 */
const countStatement = (apiKeyId: unknown, now: unknown, onlyIf: SQL = sql`true`) =>
  sql`update api_keys k set request_count = k.request_count + 1, last_request = to_timestamp(${now}::float8 / 1000)
        from users u where k.id = ${apiKeyId} and u.id = k.user_id and ${onlyIf}
      returning ${KEY_STANDING_COLUMNS}`;

export const keyWindowKey = (apiKeyId: string) => `key:${apiKeyId}`;

/**
 * The per-key limit and the key's usage counters in one statement (one round trip): the counters
 * (`request_count`, `last_request`) move only when the request is allowed, in the same statement,
 * so they are exact without a batch that a crash could lose.
 */
export async function hitKeyWindow(
  db: Executor,
  input: { apiKeyId: string; max: number; windowMs: number; now?: number; carry?: SQL },
): Promise<LimitResult & { standing?: KeyStanding | null; carried?: Record<string, unknown> | null }> {
  const full = complete({ key: keyWindowKey(input.apiKeyId), max: input.max, windowMs: input.windowMs, now: input.now });
  if (full.max <= 0) return deniedResult(db, full);
  const carry = input.carry ? sql`, carried as (${input.carry})` : sql``;
  const carried = input.carry ? sql`, (select row_to_json(r) from carried r limit 1) as carried` : sql``;
  const [row] = await rawRows<HitRow & { standing: Record<string, unknown> | null; carried?: Record<string, unknown> | null }>(
    relaxedOf(db),
    sql`with ${hitCte(hitValues(full))}, counted as (${countStatement(input.apiKeyId, full.now, sql`exists (select 1 from hit)`)})${carry}
        select used, oldest, (select row_to_json(c) from counted c) as standing${carried} from hit`,
  );
  // A refused request counts nothing and reads no standing (`standing` absent).
  if (!row) return deniedResult(db, full);
  return {
    ...allowedResult(row, full),
    standing: row.standing ? keyStandingOf(row.standing) : null,
    ...(input.carry ? { carried: row.carried ?? null } : {}),
  };
}

/** Usage counters for a key whose rate limit an admin switched off; its standing (null: the key is gone). */
export async function countKeyRequest(db: Executor, apiKeyId: string, now = Date.now()): Promise<KeyStanding | null> {
  const [row] = await rawRows<Record<string, unknown>>(relaxedOf(db), countStatement(apiKeyId, now));
  return row ? keyStandingOf(row) : null;
}

/**
 * The hits inside the key's window at `now` (what counts toward its `rateLimitMax`), as a column of
 * a query over `api_keys` (its id and `rate_limit_time_window` columns given).
 */
export const keyWindowCount = (apiKeyId: SQLWrapper, windowMs: SQLWrapper, now: number): SQL<number> =>
  sql<number>`coalesce((
      select sum(i.c) from rate_limit_windows w, unnest(w.times, w.counts) as i(t, c)
      where w.key = 'key:' || ${apiKeyId} and i.t > ${now}::bigint - ${windowMs}
    ), 0)::int`.mapWith(Number);

/**
 * Deletes windows whose newest hit is older than `olderThanMs` (longer than any window in use),
 * so subjects that went quiet (IPs, deleted keys) do not accumulate rows. Meant for a periodic job.
 */
export async function pruneRateLimitWindows(db: Executor, olderThanMs = 24 * 3_600_000, now = Date.now()): Promise<number> {
  const rows = await rawRows<{ key: string }>(
    db,
    sql`delete from rate_limit_windows
        where coalesce((select max(t) from unnest(times) as t), 0) < ${now - olderThanMs}::bigint
        returning key`,
  );
  return rows.length;
}
