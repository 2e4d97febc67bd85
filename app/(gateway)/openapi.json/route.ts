import { systemOperations } from "@/lib/http/contracts/system";
import { withGateway } from "@/lib/http/handler";
import { json } from "@/lib/http/json";
import { openApiDocument } from "@/lib/site/openapi/cached";
import { otherMethodsOf } from "@/lib/http/unknown-route";

// GET /openapi.json – the OpenAPI 3.1 document, generated from the handlers' zod schemas
export const GET = withGateway(systemOperations.getOpenApi, () =>
  json(openApiDocument(), { headers: { "Cache-Control": "public, max-age=300" } }),
);

// Any other method – 405 method_not_allowed with Allow; OPTIONS – 204 with Allow
export const { POST, PUT, PATCH, DELETE, OPTIONS } = otherMethodsOf({ GET });
