import { proxyRoutes } from "@/lib/fal-protocol/routes";

// GET/POST/PUT /api/fal/proxy – @fal-ai/server-proxy's protocol: the fal URL in x-fal-target-url,
// answered by the gateway itself under the caller's key (never forwarded; docs/fal.md).
export const { GET, HEAD, POST, PUT, PATCH, DELETE, OPTIONS } = proxyRoutes();
