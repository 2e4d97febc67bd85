import { adminModelOperations } from "@/lib/http/contracts/admin-models";
import { syncCatalog } from "@/lib/catalog/sync";
import { withGateway } from "@/lib/http/handler";
import { json } from "@/lib/http/json";
import { otherMethodsOf } from "@/lib/http/unknown-route";

// POST /admin/models/sync-catalog – re-sync the whole catalog from the provider
export const POST = withGateway(adminModelOperations.adminSyncCatalog, async ({ ctx }) => json(await syncCatalog(ctx.db)));

// Any other method – 405 method_not_allowed with Allow; OPTIONS – 204 with Allow
export const { GET, PUT, PATCH, DELETE, HEAD, OPTIONS } = otherMethodsOf({ POST });
