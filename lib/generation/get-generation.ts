import { and, eq, sql, type SQL } from "drizzle-orm";
import { tableRow } from "@/db/client";
import type { Executor } from "@/db/client";
import { generationRequests } from "@/db/schema";
import type { Principal } from "@/lib/auth/principal";
import { notFound } from "@/lib/core/errors";
import type { GenerationRow } from "./types";

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/**
 * The caller's job, or 404 exactly like a missing one (the owner is in the WHERE). Under /queue the
 * path's model id must be the job's model or its `{owner}/{app}` prefix: fal's clients drop the
 * subpath on status, result and cancel calls.
 */
export async function getGenerationOrThrow(
  ctx: { db: Executor; principal: Principal },
  id: string,
  pathModelId?: string,
  /** The row as `generationReadFor` read it with the request's key standing (undefined: read it here). */
  carried?: Record<string, unknown> | null,
): Promise<GenerationRow> {
  if (!UUID.test(id)) throw notFound("Request");
  const [row] =
    carried !== undefined
      ? carried
        ? [tableRow(generationRequests, carried)]
        : []
      : await ctx.db
          .select()
          .from(generationRequests)
          .where(and(eq(generationRequests.id, id.toLowerCase()), eq(generationRequests.userId, ctx.principal.userId)))
          .limit(1);
  if (!row) throw notFound("Request");
  if (pathModelId !== undefined && pathModelId !== row.modelId && !row.modelId.startsWith(`${pathModelId}/`)) throw notFound("Request");
  return row;
}

/**
 * The read of `getGenerationOrThrow` as SQL, for a route to carry in the statement that counts the
 * caller's key (lib/http/handler.ts `carry`): a status poll is then one round trip, one indexed
 * read by primary key. Null for an id that cannot be a request's (the route answers 404 itself).
 */
export function generationReadFor(id: string, userId: string): SQL | null {
  if (!UUID.test(id)) return null;
  return sql`select * from ${generationRequests} where id = ${id.toLowerCase()} and user_id = ${userId}`;
}
