import { withGateway } from "@/lib/http/handler";
import { json } from "@/lib/http/json";
import { listChangelog } from "@/lib/system/changelog";

// GET /changelog.json – published changes, newest first
export const GET = withGateway({ auth: "none" }, async ({ ctx }) => json(await listChangelog(ctx.db)));
