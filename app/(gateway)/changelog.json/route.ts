import { systemOperations } from "@/lib/http/contracts/system";
import { withGateway } from "@/lib/http/handler";
import { json } from "@/lib/http/json";
import { listChangelog } from "@/lib/site/changelog";
import { otherMethodsOf } from "@/lib/http/unknown-route";

// GET /changelog.json – published changes, newest first
export const GET = withGateway(systemOperations.getChangelog, async ({ ctx }) => json(await listChangelog(ctx.db)));

// Any other method – 405 method_not_allowed with Allow; OPTIONS – 204 with Allow
export const { POST, PUT, PATCH, DELETE, OPTIONS } = otherMethodsOf({ GET });
