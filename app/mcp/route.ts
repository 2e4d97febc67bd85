import { agentOperations } from "@/lib/http/contracts/agents";
import { decorated, withSkill } from "@/lib/http/handler";
import { otherMethodsOf } from "@/lib/http/unknown-route";
import { withBearerChallenge } from "@/lib/mcp/bearer-challenge";
import { serveMcp } from "@/lib/mcp/server";

// POST /mcp – the MCP server (Streamable HTTP, stateless): the skill surface's tools, billed and limited as /api/v1
export const POST = decorated(
  withSkill(agentOperations.mcp, ({ req, ctx }) => serveMcp(req, ctx), { raw: ["body"] }),
  withBearerChallenge,
);

// Any other method – 405 method_not_allowed with Allow (a stateless server has no GET stream or session to DELETE)
export const { GET, PUT, PATCH, DELETE, HEAD, OPTIONS } = otherMethodsOf({ POST });
