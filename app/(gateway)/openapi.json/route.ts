import { withGateway } from "@/lib/http/handler";
import { json } from "@/lib/http/json";
import { openApiDocument } from "@/lib/openapi/cached";

// GET /openapi.json – the OpenAPI 3.1 document, generated from the handlers' zod schemas
export const GET = withGateway({ auth: "none" }, () =>
  json(openApiDocument(), { headers: { "Cache-Control": "public, max-age=300" } }),
);
