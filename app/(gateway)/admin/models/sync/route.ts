import { adminModelOperations } from "@/lib/http/contracts/admin-models";
import { syncModel } from "@/lib/catalog/sync";
import { withGateway } from "@/lib/http/handler";
import { json } from "@/lib/http/json";
import { otherMethodsOf } from "@/lib/http/unknown-route";

// POST /admin/models/sync – refresh one model's schema from the provider
export const POST = withGateway(adminModelOperations.adminSyncModel, async ({ ctx, body }) => json(await syncModel(ctx.db, body.modelId)));

// Any other method – 405 method_not_allowed with Allow; OPTIONS – 204 with Allow
export const { GET, PUT, PATCH, DELETE, HEAD, OPTIONS } = otherMethodsOf({ POST });
