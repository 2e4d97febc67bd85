import { notFound } from "@/lib/http/errors";
import type { RequestContext } from "@/lib/http/handler";
import { findLiveAsset } from "./delete-assets";
import { toAsset } from "./present";

/** GET /me/assets/{id}: the owner's live asset, else 404. */
export async function getAssetOrThrow(ctx: RequestContext<"key">, id: string) {
  const row = await findLiveAsset(ctx.db, ctx.principal.userId, id);
  if (!row) throw notFound("Asset");
  return toAsset(row);
}
