import { assetOperations } from "@/lib/http/contracts/assets";
import { getActivityWithAssets } from "@/lib/assets/activity-assets";
import { withGateway } from "@/lib/http/handler";
import { json } from "@/lib/http/json";
import { otherMethodsOf } from "@/lib/http/unknown-route";

// GET /me/activity/{falRequestId} – an activity record and its assets, by the provider's request id
export const GET = withGateway(assetOperations.getActivityByProviderRequest, async ({ ctx, params }) =>
  json(await getActivityWithAssets(ctx, params.falRequestId)),
);

// Any other method – 405 method_not_allowed with Allow; OPTIONS – 204 with Allow
export const { POST, PUT, PATCH, DELETE, OPTIONS } = otherMethodsOf({ GET });
