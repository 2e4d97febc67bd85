import { adminMoneyOperations } from "@/lib/http/contracts/admin-money";
import { adminStats } from "@/lib/admin/stats";
import { withGateway } from "@/lib/http/handler";
import { json } from "@/lib/http/json";
import { otherMethodsOf } from "@/lib/http/unknown-route";

// GET /admin/stats – users, active keys, models, credits issued and used, and each provider's jobs and margin
export const GET = withGateway(adminMoneyOperations.adminStats, async ({ ctx }) => json(await adminStats(ctx.db)));

// Any other method – 405 method_not_allowed with Allow; OPTIONS – 204 with Allow
export const { POST, PUT, PATCH, DELETE, OPTIONS } = otherMethodsOf({ GET });
