import { sql } from "drizzle-orm";
import type { Db } from "@/db/client";

const startedAt = Date.now();

/** One real database round trip, bounded so a hung database reports `down` instead of hanging. */
export async function checkHealth(db: Db | null, timeoutMs = 2000) {
  let dbOk = false;
  if (db) {
    let timer: ReturnType<typeof setTimeout> | undefined;
    const timeout = new Promise<never>((_, reject) => {
      timer = setTimeout(() => reject(new Error("database ping timed out")), timeoutMs);
    });
    dbOk = await Promise.race([db.execute(sql`select 1`), timeout]).then(
      () => true,
      () => false,
    );
    clearTimeout(timer);
  }
  return {
    status: dbOk ? ("ok" as const) : ("degraded" as const),
    db: dbOk ? ("ok" as const) : ("down" as const),
    uptime: Math.round((Date.now() - startedAt) / 1000),
    timestamp: new Date().toISOString(),
  };
}
