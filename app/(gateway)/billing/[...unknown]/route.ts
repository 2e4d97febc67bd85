import { gatewayUnknownRoute } from "@/lib/http/unknown-route";

// Any unknown path under this prefix – 404 not_found in the gateway envelope
export const { GET, POST, PUT, PATCH, DELETE } = gatewayUnknownRoute;
