import type { ServiceContext } from "@/lib/auth/context";
import { sql } from "drizzle-orm";
import { rawRows } from "@/db/client";
import { windowStart, type UsageWindow } from "./windows";

type Row = { model_id: string; display_name: string | null; price_unit: string | null; credits: string | number; count: string | number };

/**
 * A user's spend per model over a window, most expensive first, with the catalog's name and price
 * unit (null for a model no longer in the catalog). Grouped in SQL over activity_user_created_idx;
 * the join touches one catalog row per group.
 */
export async function usageByModel({ db, principal: { userId } }: ServiceContext, window: UsageWindow, now = Date.now()) {
  const rows = await rawRows<Row>(
    db,
    sql`select spend.model_id, m.display_name, m.price_unit, spend.credits, spend.count
          from (select coalesce(a.model_id, '') as model_id, coalesce(sum(a.credits), 0) as credits, count(*) as count
                  from activity a
                 where a.user_id = ${userId} and a.created_at >= ${windowStart(window, now).toISOString()} and a.sandbox = false
                 group by a.model_id) spend
          left join models m on m.model_id = spend.model_id
         order by spend.credits desc, spend.model_id asc`,
  );
  return {
    items: rows.map((r) => ({
      modelId: r.model_id,
      displayName: r.display_name,
      priceUnit: r.price_unit,
      credits: Number(r.credits),
      count: Number(r.count),
    })),
  };
}
