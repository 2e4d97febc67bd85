import { activityQuery } from "@/lib/api/contracts/generation";
import { listActivity } from "@/lib/generation/list-activity";
import { withGateway } from "@/lib/http/handler";
import { json } from "@/lib/http/json";

// GET /me/activity – your activity records, newest first, with filters
export const GET = withGateway({ auth: "key", query: activityQuery }, async ({ ctx, query }) => json(await listActivity(ctx, query)));
