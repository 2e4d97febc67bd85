import { and, asc, eq } from "drizzle-orm";
import type { Executor } from "@/db/client";
import { generationEvents } from "@/db/schema";

/** The provider logs recorded for a job, oldest first (status `logs=1`). */
export async function logsOf(db: Executor, generationId: string): Promise<{ message: string; timestamp: string }[]> {
  const rows = await db
    .select({ data: generationEvents.data })
    .from(generationEvents)
    .where(and(eq(generationEvents.generationId, generationId), eq(generationEvents.kind, "log")))
    .orderBy(asc(generationEvents.seq));
  return rows.map((r) => ({ message: String(r.data.message), timestamp: String(r.data.timestamp) }));
}
