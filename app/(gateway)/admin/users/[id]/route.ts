import { getUserDetail } from "@/lib/admin/users/get-user";
import { userIdParams } from "@/lib/api/contracts/admin-users";
import { withGateway } from "@/lib/http/handler";
import { json } from "@/lib/http/json";

// GET /admin/users/{id} – a user with balance and usage
export const GET = withGateway({ auth: "admin", params: userIdParams }, async ({ ctx, params }) =>
  json(await getUserDetail(ctx.db, params.id)),
);
