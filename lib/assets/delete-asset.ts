import { notFound } from "@/lib/http/errors";
import type { RequestContext } from "@/lib/http/handler";
import { deleteAssetRows, findLiveAsset } from "./delete-assets";

/** DELETE /me/assets/{id}: the object is removed and the URL answers 404 from then on. */
export async function deleteAsset(ctx: RequestContext<"key">, id: string) {
  const row = await findLiveAsset(ctx.db, ctx.principal.userId, id);
  if (!row) throw notFound("Asset");
  await deleteAssetRows(ctx.db, [row]);
  return { id, deleted: true as const };
}
