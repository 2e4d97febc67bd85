import { ApiReference } from "@scalar/nextjs-api-reference";

// GET /docs – the API reference, rendered from /openapi.json by Scalar (served locally, no CDN)
export const GET = ApiReference({
  url: "/openapi.json",
  cdn: "/docs/scalar.js",
  pageTitle: "Generation Gateway API",
  theme: "default",
});
