import { skillUnknownRoute } from "@/lib/http/unknown-route";

// Any path under /mcp (/mcp/sse, /mcp/messages, …) – 404 NOT_FOUND in the skill envelope, not the HTML page
export const { GET, POST, PUT, PATCH, DELETE } = skillUnknownRoute;
