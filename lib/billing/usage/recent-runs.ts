import { sql } from "drizzle-orm";
import { rawRows, type Executor } from "@/db/client";
import { activity, assets } from "@/db/schema";

export type RecentRun = {
  id: string;
  modelId: string | null;
  operation: string;
  status: string;
  errorCode: string | null;
  credits: number;
  createdAt: string;
  /** The run's first stored image (its public URL), for a thumbnail; null without one. */
  thumbnailUrl: string | null;
};

/**
 * The Overview's recent generations: a user's newest activity records, each with its first stored
 * image, in one statement (the activity_user_created_idx range, then each record's assets through
 * assets_generation_source_uq). Only the owner's rows and the owner's live assets.
 */
export async function recentRuns(db: Executor, userId: string, limit = 6): Promise<RecentRun[]> {
  const rows = await rawRows<{
    id: string;
    model_id: string | null;
    operation: string;
    status: string;
    error_code: string | null;
    credits: string | number;
    created_at: string | Date;
    thumbnail_url: string | null;
  }>(
    db,
    sql`select a.id, a.model_id, a.operation, a.status, a.error_code, a.credits, a.created_at, t.public_url as thumbnail_url
          from ${activity} a
          left join lateral (
            select s.public_url from ${assets} s
             where s.generation_id = a.request_id and s.user_id = a.user_id and s.status = 'stored'
               and s.public_url is not null and s.content_type like 'image/%'
             order by s.created_at, s.id limit 1
          ) t on true
         where a.user_id = ${userId}
         order by a.created_at desc, a.id desc
         limit ${limit}`,
  );
  return rows.map((r) => ({
    id: r.id,
    modelId: r.model_id,
    operation: r.operation,
    status: r.status,
    errorCode: r.error_code,
    credits: Number(r.credits),
    createdAt: new Date(r.created_at).toISOString(),
    thumbnailUrl: r.thumbnail_url,
  }));
}
