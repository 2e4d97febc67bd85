import type { ServiceContext } from "@/lib/auth/context";
import { notFound } from "@/lib/core/errors";
import { deleteAssetRows, findLiveAsset } from "./delete-assets";

/** DELETE /me/assets/{id}: the object is removed and the URL answers 404 from then on. */
export async function deleteAsset(ctx: ServiceContext, id: string) {
  const row = await findLiveAsset(ctx.db, ctx.principal.userId, id);
  if (!row) throw notFound("Asset");
  await deleteAssetRows(ctx.db, [row]);
  return { id, deleted: true as const };
}
