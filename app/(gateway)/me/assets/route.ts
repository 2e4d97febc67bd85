import { listAssetsQuery } from "@/lib/api/contracts/assets";
import { listAssets } from "@/lib/assets/list-assets";
import { withGateway } from "@/lib/http/handler";
import { json } from "@/lib/http/json";

// GET /me/assets – your stored files, newest first
export const GET = withGateway({ auth: "key", query: listAssetsQuery }, async ({ ctx, query }) =>
  json(await listAssets(ctx, query)),
);
