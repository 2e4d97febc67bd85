import type { ServiceContext } from "@/lib/auth/context";
import { sql } from "drizzle-orm";
import { rawRows } from "@/db/client";
import { windowStart, type UsageWindow } from "./windows";

/** What a key looks like in lists: its first characters and an ellipsis, never the secret. */
export const partialKey = (start: string | null) => (start ? `${start}…` : null);

type Row = {
  api_key_id: string | null;
  name: string | null;
  start: string | null;
  credits: string | number;
  count: string | number;
  last_used_at: string | Date;
};

/**
 * A user's spend per API key over a window, most expensive first. Operations made from the
 * dashboard (no key) form one item with apiKeyId null; a deleted key keeps its id with a null name.
 * The key join repeats the owner, so a key id that is not the caller's can never lend its name.
 */
export async function usageByKey({ db, principal: { userId } }: ServiceContext, window: UsageWindow, now = Date.now()) {
  const rows = await rawRows<Row>(
    db,
    sql`select spend.api_key_id, k.name, k.start, spend.credits, spend.count, spend.last_used_at
          from (select a.api_key_id, coalesce(sum(a.credits), 0) as credits, count(*) as count, max(a.created_at) as last_used_at
                  from activity a
                 where a.user_id = ${userId} and a.created_at >= ${windowStart(window, now).toISOString()} and a.sandbox = false
                 group by a.api_key_id) spend
          left join api_keys k on k.id = spend.api_key_id and k.user_id = ${userId}
         order by spend.credits desc, spend.api_key_id asc nulls last`,
  );
  return {
    items: rows.map((r) => ({
      apiKeyId: r.api_key_id,
      keyName: r.name,
      partialKey: partialKey(r.start),
      credits: Number(r.credits),
      count: Number(r.count),
      lastUsedAt: new Date(r.last_used_at).toISOString(),
    })),
  };
}
