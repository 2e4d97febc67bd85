import { adminModelOperations } from "@/lib/http/contracts/admin-models";
import { deleteModel } from "@/lib/catalog/admin-delete";
import { listAdminModels } from "@/lib/catalog/admin-list";
import { upsertModel } from "@/lib/catalog/admin-upsert";
import { withGateway } from "@/lib/http/handler";
import { json } from "@/lib/http/json";
import { otherMethodsOf } from "@/lib/http/unknown-route";

// GET /admin/models – every model, hidden ones included
export const GET = withGateway(adminModelOperations.adminListModels, async ({ ctx, query }) => json(await listAdminModels(ctx.db, query)));

// POST /admin/models – create a model or update the fields given
export const POST = withGateway(adminModelOperations.adminUpsertModel, async ({ ctx, body }) =>
  json(await upsertModel(ctx.db, body), { status: 201 }),
);

// DELETE /admin/models – remove a model for good
export const DELETE = withGateway(adminModelOperations.adminDeleteModel, async ({ ctx, body }) =>
  json(await deleteModel(ctx.db, body.modelId, ctx.principal.userId)),
);

// Any other method – 405 method_not_allowed with Allow; OPTIONS – 204 with Allow
export const { PUT, PATCH, OPTIONS } = otherMethodsOf({ GET, POST, DELETE });
