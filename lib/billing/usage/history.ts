import type { ServiceContext } from "@/lib/auth/context";
import { sql } from "drizzle-orm";
import { rawRows } from "@/db/client";
import { activity } from "@/db/schema";
import { bucketStart, granularityMs, type HistoryGranularity } from "./windows";

export type HistoryRange = { from: Date; to: Date; granularity: HistoryGranularity };
export type HistoryPoint = { bucket: string; credits: number; count: number };

/** Next bucket start: hours and weeks are fixed lengths in UTC; so are days (UTC has no DST). */
const nextBucket = (d: Date, granularity: HistoryGranularity) => new Date(d.getTime() + granularityMs[granularity]);

/** Every bucket start from the one holding `from` up to (not including) `to`, in UTC. */
export function bucketsOf({ from, to, granularity }: HistoryRange): Date[] {
  const out: Date[] = [];
  for (let b = bucketStart(from, granularity); b < to; b = nextBucket(b, granularity)) out.push(b);
  return out;
}

/**
 * Spend over time: credits and operations per UTC bucket in [from, to), zero-filled so a chart
 * has every bucket. PostgreSQL groups the rows (activity_user_created_idx range scan); only the
 * non-empty buckets come back, and they are merged into the bucket list here.
 */
export async function usageHistory({ db, principal: { userId } }: ServiceContext, range: HistoryRange) {
  const rows = await rawRows<{ bucket: string; credits: string | number; count: string | number }>(
    db,
    sql`select to_char(date_trunc(${range.granularity}, ${activity.createdAt} at time zone 'UTC'), 'YYYY-MM-DD"T"HH24:MI:SS".000Z"') as bucket,
               coalesce(sum(${activity.credits}), 0) as credits, count(*) as count
          from ${activity}
         where ${activity.userId} = ${userId} and ${activity.sandbox} = false
           and ${activity.createdAt} >= ${range.from.toISOString()} and ${activity.createdAt} < ${range.to.toISOString()}
         group by 1`,
  );
  const byBucket = new Map(rows.map((r) => [r.bucket, { credits: Number(r.credits), count: Number(r.count) }]));
  const series: HistoryPoint[] = bucketsOf(range).map((b) => {
    const bucket = b.toISOString();
    return { bucket, ...(byBucket.get(bucket) ?? { credits: 0, count: 0 }) };
  });
  return { granularity: range.granularity, from: range.from.toISOString(), to: range.to.toISOString(), series };
}
