import { listUsers } from "@/lib/admin/users/list-users";
import { listUsersQuery } from "@/lib/api/contracts/admin-users";
import { withGateway } from "@/lib/http/handler";
import { json } from "@/lib/http/json";

// GET /admin/users – list users, newest first (search, role, banned)
export const GET = withGateway({ auth: "admin", query: listUsersQuery }, async ({ ctx, query }) =>
  json(await listUsers(ctx.db, query)),
);
