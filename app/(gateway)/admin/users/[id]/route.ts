import { getUserDetail } from "@/lib/admin/users/get-user";
import { adminUserOperations } from "@/lib/http/contracts/admin-users";
import { withGateway } from "@/lib/http/handler";
import { json } from "@/lib/http/json";
import { otherMethodsOf } from "@/lib/http/unknown-route";

// GET /admin/users/{id} – a user with balance and usage
export const GET = withGateway(adminUserOperations.adminGetUser, async ({ ctx, params }) => json(await getUserDetail(ctx.db, params.id)));

// Any other method – 405 method_not_allowed with Allow; OPTIONS – 204 with Allow
export const { POST, PUT, PATCH, DELETE, OPTIONS } = otherMethodsOf({ GET });
