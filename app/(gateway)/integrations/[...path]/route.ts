import { integrationOperations } from "@/lib/http/contracts/integrations";
import { withGateway } from "@/lib/http/handler";
import { notFound } from "@/lib/core/errors";
import { env } from "@/lib/core/env";
import { json } from "@/lib/http/json";
import { readJson } from "@/lib/http/request";
import { gatewayUnknownRoute } from "@/lib/http/unknown-route";
import { runIntegration } from "@/lib/integrations/run-integration";
import { userGenerationLimit } from "@/lib/rate-limit/rules";

// POST /integrations/{slug} and /integrations/{slug}-edit – a partner adapter from the registry.
// A cover is a generation, so it counts against the same per-user hourly limit as /run and /queue.
export const POST = withGateway(
  [integrationOperations.generateCover, integrationOperations.editCover],
  async ({ req, ctx, params }) => {
    const segments = [params.path ?? []].flat();
    if (segments.length !== 1) throw notFound("Endpoint");
    return json(await runIntegration(ctx, req, segments[0]!, () => readJson(req, env().MAX_BODY_BYTES)));
  },
  { rateLimit: [userGenerationLimit] },
);

// Any other method or path under /integrations – 404 not_found in the gateway envelope
export const { GET, PUT, PATCH, DELETE } = gatewayUnknownRoute;
