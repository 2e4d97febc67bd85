import { withGateway } from "@/lib/http/handler";
import { json } from "@/lib/http/json";
import { openApiDocument } from "@/lib/openapi/cached";
import { gatewayOtherMethods } from "@/lib/http/unknown-route";

// GET /openapi.json – the OpenAPI 3.1 document, generated from the handlers' zod schemas
export const GET = withGateway({ auth: "none" }, () => json(openApiDocument(), { headers: { "Cache-Control": "public, max-age=300" } }));

// Any other method – 405 method_not_allowed with Allow; OPTIONS – 204 with Allow
export const { POST, PUT, PATCH, DELETE, OPTIONS } = gatewayOtherMethods("GET");
