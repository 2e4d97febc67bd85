import { assetOperations } from "@/lib/http/contracts/assets";
import { deleteActivityAssets } from "@/lib/assets/activity-assets";
import { withGateway } from "@/lib/http/handler";
import { json } from "@/lib/http/json";
import { otherMethodsOf } from "@/lib/http/unknown-route";

// DELETE /me/activity/{falRequestId}/assets – delete every file of an activity record
export const DELETE = withGateway(assetOperations.deleteActivityAssets, async ({ ctx, params }) =>
  json(await deleteActivityAssets(ctx, params.falRequestId)),
);

// Any other method – 405 method_not_allowed with Allow; OPTIONS – 204 with Allow
export const { GET, POST, PUT, PATCH, HEAD, OPTIONS } = otherMethodsOf({ DELETE });
