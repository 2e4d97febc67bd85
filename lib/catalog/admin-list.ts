import { and, asc, eq, ilike, inArray, or, sql, type SQL } from "drizzle-orm";
import type { Executor } from "@/db/client";
import { models } from "@/db/schema";
import { CATEGORY_ORDER } from "./categories";
import { allColumns } from "./columns";
import { toAdminRecord } from "./admin-record";
import { escapeLike } from "@/lib/core/escape-like";

export type AdminListQuery = { limit: number; offset: number; category: string[]; visibleOnly: boolean; search?: string };

const adminColumns = Object.fromEntries(Object.entries(allColumns).filter(([k]) => k !== "schema" && k !== "schemaRu")) as Omit<
  typeof allColumns,
  "schema" | "schemaRu"
>;

const CATEGORY_ARRAY = sql.raw(`ARRAY[${CATEGORY_ORDER.map((c) => `'${c}'`).join(",")}]::text[]`);

/** GET /admin/models: every model, hidden ones included unless visibleOnly. */
export async function listAdminModels(db: Executor, q: AdminListQuery) {
  const where: SQL[] = [];
  if (q.visibleOnly) where.push(eq(models.visible, true));
  if (q.category.length) where.push(inArray(models.category, q.category));
  if (q.search) {
    const pattern = `%${escapeLike(q.search)}%`;
    where.push(or(ilike(models.modelId, pattern), ilike(models.displayName, pattern), ilike(models.modelLab, pattern))!);
  }
  const rows = await db
    .select({ ...adminColumns, total: sql<number>`count(*) over ()`.mapWith(Number) })
    .from(models)
    .where(and(...where))
    .orderBy(sql`array_position(${CATEGORY_ARRAY}, ${models.category}) asc nulls last`, asc(models.category), asc(models.modelId))
    .limit(q.limit)
    .offset(q.offset);
  const total =
    rows[0]?.total ??
    (q.offset > 0
      ? (
          await db
            .select({ n: sql<number>`count(*)`.mapWith(Number) })
            .from(models)
            .where(and(...where))
        )[0]!.n
      : 0);
  return { items: rows.map(toAdminRecord), total, limit: q.limit, offset: q.offset };
}
