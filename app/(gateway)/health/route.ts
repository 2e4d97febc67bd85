import { getDb } from "@/db/client";
import { json } from "@/lib/http/json";
import { requestIdOf } from "@/lib/http/request-id";
import { checkHealth } from "@/lib/system/health";
import { gatewayOtherMethods } from "@/lib/http/unknown-route";

// GET /health – liveness with a real database round trip (503 when the database is down)
// Not wrapped: it must answer even when opening the database fails.
export async function GET(req: Request) {
  const db = await getDb().catch(() => null);
  const health = await checkHealth(db);
  return json(health, {
    status: health.db === "ok" ? 200 : 503,
    headers: { "X-Request-ID": requestIdOf(req), "Cache-Control": "no-store" },
  });
}

// Any other method – 405 method_not_allowed with Allow; OPTIONS – 204 with Allow
export const { POST, PUT, PATCH, DELETE, OPTIONS } = gatewayOtherMethods("GET");
