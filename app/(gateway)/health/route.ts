import { systemOperations } from "@/lib/http/contracts/system";
import { serving } from "@/lib/http/handler";
import { json } from "@/lib/http/json";
import { requestIdOf } from "@/lib/http/request-id";
import { otherMethodsOf } from "@/lib/http/unknown-route";
import { currentHealth } from "@/lib/server/health";
import { observed } from "@/lib/http/observe";

// GET /health – each part's state (lib/server/health.ts); 503 only when the database is down
// Not wrapped: it must answer even when opening the database fails.
export const GET = serving(
  systemOperations.getHealth,
  observed(
    "/health",
    async (req: Request) => {
      const health = await currentHealth();
      return json(health, {
        status: health.db === "ok" ? 200 : 503,
        headers: { "X-Request-ID": requestIdOf(req), "Cache-Control": "no-store" },
      });
    },
    { quiet: true },
  ),
);

// Any other method – 405 method_not_allowed with Allow; OPTIONS – 204 with Allow
export const { POST, PUT, PATCH, DELETE, OPTIONS } = otherMethodsOf({ GET });
