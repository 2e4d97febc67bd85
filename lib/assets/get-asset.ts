import type { ServiceContext } from "@/lib/auth/context";
import { notFound } from "@/lib/core/errors";
import { findLiveAsset } from "./delete-assets";
import { toAsset } from "./present";

/** GET /me/assets/{id}: the owner's live asset, else 404. */
export async function getAssetOrThrow(ctx: ServiceContext, id: string) {
  const row = await findLiveAsset(ctx.db, ctx.principal.userId, id);
  if (!row) throw notFound("Asset");
  return toAsset(row);
}
