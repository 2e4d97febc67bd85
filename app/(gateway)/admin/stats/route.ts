import { adminStats } from "@/lib/admin/stats";
import { withGateway } from "@/lib/http/handler";
import { json } from "@/lib/http/json";

// GET /admin/stats – users, active keys, models and credits issued and used
export const GET = withGateway({ auth: "admin" }, async ({ ctx }) => json(await adminStats(ctx.db)));
