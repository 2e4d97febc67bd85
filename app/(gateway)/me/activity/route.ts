import { generationOperations } from "@/lib/http/contracts/generation";
import { listActivity } from "@/lib/generation";
import { withGateway } from "@/lib/http/handler";
import { json } from "@/lib/http/json";
import { otherMethodsOf } from "@/lib/http/unknown-route";

// GET /me/activity – your activity records, newest first, with filters
export const GET = withGateway(generationOperations.listActivity, async ({ ctx, query }) => json(await listActivity(ctx, query)));

// Any other method – 405 method_not_allowed with Allow; OPTIONS – 204 with Allow
export const { POST, PUT, PATCH, DELETE, OPTIONS } = otherMethodsOf({ GET });
