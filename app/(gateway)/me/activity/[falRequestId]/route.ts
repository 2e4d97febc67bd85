import { falRequestParams } from "@/lib/api/contracts/assets";
import { getActivityWithAssets } from "@/lib/assets/activity-assets";
import { withGateway } from "@/lib/http/handler";
import { json } from "@/lib/http/json";

// GET /me/activity/{falRequestId} – an activity record and its assets, by the provider's request id
export const GET = withGateway({ auth: "key", params: falRequestParams }, async ({ ctx, params }) =>
  json(await getActivityWithAssets(ctx, params.falRequestId)),
);
