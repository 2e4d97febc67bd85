import { assetOperations } from "@/lib/http/contracts/assets";
import { deleteAsset } from "@/lib/assets/delete-asset";
import { getAssetOrThrow } from "@/lib/assets/get-asset";
import { withGateway } from "@/lib/http/handler";
import { json } from "@/lib/http/json";
import { otherMethodsOf } from "@/lib/http/unknown-route";

// GET /me/assets/{id} – one of your stored files
export const GET = withGateway(assetOperations.getAsset, async ({ ctx, params }) => json(await getAssetOrThrow(ctx, params.id)));

// DELETE /me/assets/{id} – delete a stored file; its URL answers 404 from then on
export const DELETE = withGateway(assetOperations.deleteAsset, async ({ ctx, params }) => json(await deleteAsset(ctx, params.id)));

// Any other method – 405 method_not_allowed with Allow; OPTIONS – 204 with Allow
export const { POST, PUT, PATCH, OPTIONS } = otherMethodsOf({ GET, DELETE });
