import { syncCatalog } from "@/lib/catalog/sync";
import { withGateway } from "@/lib/http/handler";
import { json } from "@/lib/http/json";

// POST /admin/models/sync-catalog – re-sync the whole catalog from the provider
export const POST = withGateway({ auth: "admin" }, async ({ ctx }) => json(await syncCatalog(ctx.db)));
