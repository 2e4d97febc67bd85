import { adminModelOperations } from "@/lib/http/contracts/admin-models";
import { adminModelRoutes, replaceAdminModelRoutes } from "@/lib/admin/model-routes";
import { withGateway } from "@/lib/http/handler";
import { json } from "@/lib/http/json";
import { otherMethodsOf } from "@/lib/http/unknown-route";

// GET /admin/models/routes?modelId= – a model's routes, in order, with their margins
export const GET = withGateway(adminModelOperations.adminGetModelRoutes, async ({ ctx, query }) =>
  json(await adminModelRoutes(ctx.db, query.modelId)),
);

// PUT /admin/models/routes – replace every route of a model at once
export const PUT = withGateway(adminModelOperations.adminReplaceModelRoutes, async ({ ctx, body }) =>
  json(await replaceAdminModelRoutes(ctx.db, body)),
);

// Any other method – 405 method_not_allowed with Allow; OPTIONS – 204 with Allow
export const { POST, PATCH, DELETE, OPTIONS } = otherMethodsOf({ GET, PUT });
