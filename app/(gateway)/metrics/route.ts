import { DomainError, notFound } from "@/lib/core/errors";
import { systemOperations } from "@/lib/http/contracts/system";
import { serving } from "@/lib/http/handler";
import { normalizeError, renderError } from "@/lib/http/render";
import { requestIdOf } from "@/lib/http/request-id";
import { otherMethodsOf } from "@/lib/http/unknown-route";
import { authorizeScrape } from "@/lib/observability/scrape-auth";
import { metrics, metricsEnabled } from "@/lib/observability/metrics";
import { observed } from "@/lib/http/observe";
import { registerScrapeGauges } from "@/lib/server/scrape";

// GET /metrics – Prometheus metrics (METRICS_TOKEN as a bearer token; 404 while it is unset)
// Not wrapped: a scrape must answer while the database is down, and needs no user.
export const GET = serving(
  systemOperations.getMetrics,
  observed(
    "/metrics",
    async (req: Request) => {
      const requestId = requestIdOf(req);
      try {
        if (!metricsEnabled()) throw notFound("Endpoint");
        if (!authorizeScrape(req.headers.get("authorization"))) {
          throw new DomainError(
            "unauthorized",
            "A valid metrics token is required (Authorization: Bearer <METRICS_TOKEN>)",
            {},
            { "WWW-Authenticate": 'Bearer realm="metrics"' },
          );
        }
        registerScrapeGauges();
        const { registry } = metrics();
        // prom-client writes NaN (an event-loop figure before its first sample) as `Nan`; the text
        // format spells it `NaN`, and stricter parsers than Prometheus's refuse the other.
        const text = (await registry.metrics()).replace(/ Nan$/gm, " NaN");
        return new Response(text, {
          headers: { "Content-Type": registry.contentType, "Cache-Control": "no-store", "X-Request-ID": requestId },
        });
      } catch (err) {
        return renderError("gateway", normalizeError(err, requestId), requestId);
      }
    },
    { quiet: true },
  ),
);

// Any other method – 405 method_not_allowed with Allow; OPTIONS – 204 with Allow
export const { POST, PUT, PATCH, DELETE, OPTIONS } = otherMethodsOf({ GET });
