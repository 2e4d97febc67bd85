import { assetOperations } from "@/lib/http/contracts/assets";
import { listAssets } from "@/lib/assets/list-assets";
import { withGateway } from "@/lib/http/handler";
import { json } from "@/lib/http/json";
import { otherMethodsOf } from "@/lib/http/unknown-route";

// GET /me/assets – your stored files, newest first
export const GET = withGateway(assetOperations.listAssets, async ({ ctx, query }) => json(await listAssets(ctx, query)));

// Any other method – 405 method_not_allowed with Allow; OPTIONS – 204 with Allow
export const { POST, PUT, PATCH, DELETE, OPTIONS } = otherMethodsOf({ GET });
