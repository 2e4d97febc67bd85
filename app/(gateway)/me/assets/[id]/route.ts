import { assetIdParams } from "@/lib/api/contracts/assets";
import { deleteAsset } from "@/lib/assets/delete-asset";
import { getAssetOrThrow } from "@/lib/assets/get-asset";
import { withGateway } from "@/lib/http/handler";
import { json } from "@/lib/http/json";

// GET /me/assets/{id} – one of your stored files
export const GET = withGateway({ auth: "key", params: assetIdParams }, async ({ ctx, params }) =>
  json(await getAssetOrThrow(ctx, params.id)),
);

// DELETE /me/assets/{id} – delete a stored file; its URL answers 404 from then on
export const DELETE = withGateway({ auth: "key", params: assetIdParams }, async ({ ctx, params }) =>
  json(await deleteAsset(ctx, params.id)),
);
