import { gatewayUnknownRoute } from "@/lib/http/unknown-route";

// Any unknown path under /api/fal (/api/fal/proxy/…) – 404 not_found in the envelope, not the HTML page
export const { GET, POST, PUT, PATCH, DELETE } = gatewayUnknownRoute;
