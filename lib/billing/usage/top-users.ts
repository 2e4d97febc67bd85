import { sql } from "drizzle-orm";
import { rawRows, type Executor } from "@/db/client";
import { windowStart, type UsageWindow } from "./windows";

type Row = { user_id: string; email: string | null; name: string | null; credits: string | number; count: string | number };

/**
 * GET /admin/usage/top-users: the biggest spenders over a window. PostgreSQL groups and ranks the
 * window's rows (activity_created_idx range scan) and limits before joining the few users.
 */
export async function topUsers(db: Executor, window: UsageWindow, limit: number, now = Date.now()) {
  const rows = await rawRows<Row>(
    db,
    sql`select spend.user_id, u.email, u.name, spend.credits, spend.count
          from (select a.user_id, coalesce(sum(a.credits), 0) as credits, count(*) as count
                  from activity a
                 where a.created_at >= ${windowStart(window, now).toISOString()} and a.sandbox = false
                 group by a.user_id
                 order by credits desc, a.user_id asc
                 limit ${limit}) spend
          join users u on u.id = spend.user_id
         order by spend.credits desc, spend.user_id asc`,
  );
  return {
    window,
    items: rows.map((r) => ({ userId: r.user_id, email: r.email, name: r.name, credits: Number(r.credits), count: Number(r.count) })),
  };
}
