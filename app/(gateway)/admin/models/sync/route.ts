import { modelIdBody } from "@/lib/api/contracts/admin-models";
import { syncModel } from "@/lib/catalog/sync";
import { withGateway } from "@/lib/http/handler";
import { json } from "@/lib/http/json";

// POST /admin/models/sync – refresh one model's schema from the provider
export const POST = withGateway({ auth: "admin", body: modelIdBody }, async ({ ctx, body }) =>
  json(await syncModel(ctx.db, body.modelId)),
);
