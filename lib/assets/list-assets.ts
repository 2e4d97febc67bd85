import type { ServiceContext } from "@/lib/auth/context";
import { and, count, desc, eq, ne, type SQL } from "drizzle-orm";
import { assets } from "@/db/schema";
import { toAsset } from "./present";

/** GET /me/assets: the owner's live assets, newest first. */
export async function listAssets(
  ctx: ServiceContext,
  q: { kind?: "upload" | "result" | "integration"; status?: "pending" | "stored" | "failed"; limit: number; offset: number },
) {
  const filters: SQL[] = [eq(assets.userId, ctx.principal.userId), ne(assets.status, "deleted")];
  if (q.kind) filters.push(eq(assets.kind, q.kind));
  if (q.status) filters.push(eq(assets.status, q.status));
  const where = and(...filters);
  const [rows, [total]] = await Promise.all([
    ctx.db.select().from(assets).where(where).orderBy(desc(assets.createdAt), desc(assets.id)).limit(q.limit).offset(q.offset),
    ctx.db.select({ n: count() }).from(assets).where(where),
  ]);
  return { items: rows.map(toAsset), total: total?.n ?? 0, limit: q.limit, offset: q.offset };
}
