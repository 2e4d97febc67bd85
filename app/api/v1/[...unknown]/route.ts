import { skillUnknownRoute } from "@/lib/http/unknown-route";

// Any unknown path under /api/v1 – 404 NOT_FOUND in the skill envelope
export const { GET, POST, PUT, PATCH, DELETE } = skillUnknownRoute;
