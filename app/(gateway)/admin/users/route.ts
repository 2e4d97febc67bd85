import { listUsers } from "@/lib/admin/users/list-users";
import { adminUserOperations } from "@/lib/http/contracts/admin-users";
import { withGateway } from "@/lib/http/handler";
import { json } from "@/lib/http/json";
import { otherMethodsOf } from "@/lib/http/unknown-route";

// GET /admin/users – list users, newest first (search, role, banned)
export const GET = withGateway(adminUserOperations.adminListUsers, async ({ ctx, query }) => json(await listUsers(ctx.db, query)));

// Any other method – 405 method_not_allowed with Allow; OPTIONS – 204 with Allow
export const { POST, PUT, PATCH, DELETE, OPTIONS } = otherMethodsOf({ GET });
