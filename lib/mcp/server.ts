import type { ServiceContext } from "@/lib/auth/context";
import { createMcpHandler, McpServer, type McpHttpHandler, type ServerContext } from "@modelcontextprotocol/server";
import { env } from "@/lib/core/env";
import { readJson } from "@/lib/http/request";
import { log } from "@/lib/core/logger";
import { processWide } from "@/lib/core/process-wide";
import { jsonUploadCap } from "@/lib/uploads/json-upload";
import { toolError } from "./errors";
import type { McpTool, ToolCall } from "./tool";
import { tools } from "./tools";

export const SERVER_INFO = { name: "generation-gateway", title: "Generation Gateway", version: "1.0.0" };

const INSTRUCTIONS =
  "Generate images, video and audio on catalogued models, paid from the account's balance in rubles. " +
  "Find a model with list_models, read its parameters with get_model_schema, optionally price a call with estimate_cost, " +
  "then call generate. Files a model needs as input go through upload_file first. A long generate returns a request_id: " +
  "follow it with get_request. Errors carry a code (INSUFFICIENT_BALANCE, RATE_LIMITED, NOT_FOUND, INVALID_PARAMS, " +
  "PROVIDER_ERROR, UNAUTHORIZED) and say what to do next.";

/** The principal and request a tool call runs for, handed through the SDK as `authInfo.extra`. */
type CallerInfo = { ctx: ServiceContext; req: Request };

function register(server: McpServer, tool: McpTool, caller: CallerInfo) {
  server.registerTool(
    tool.name,
    { title: tool.title, description: tool.description, inputSchema: tool.input, annotations: tool.annotations },
    async (args: unknown, extra: ServerContext) => {
      const token = extra.mcpReq._meta?.progressToken;
      let sent = 0;
      const call: ToolCall = {
        ...caller,
        signal: extra.mcpReq.signal,
        progress: async (message) => {
          if (token === undefined) return;
          // A client that went away cannot be told; the tool goes on to its answer.
          await extra.mcpReq
            .notify({ method: "notifications/progress", params: { progressToken: token, progress: ++sent, message } })
            .catch((error: unknown) => log.debug("MCP progress not delivered", { requestId: caller.ctx.requestId, error }));
        },
      };
      try {
        return await tool.run(args as never, call);
      } catch (err) {
        return toolError(err, caller.ctx.requestId);
      }
    },
  );
}

function buildServer(caller: CallerInfo): McpServer {
  const server = new McpServer(SERVER_INFO, { instructions: INSTRUCTIONS });
  for (const tool of tools) register(server, tool, caller);
  return server;
}

/**
 * One handler per process. It serves the 2026-07-28 revision and, statelessly, 2025-era
 * Streamable HTTP clients; each HTTP request gets a fresh server instance built for its caller,
 * so nothing about a caller outlives the request. Subscriptions are refused: the tool list never
 * changes, and an open stream per client would only hold a connection.
 */
function handler(): McpHttpHandler {
  return processWide("mcp-handler", () =>
    createMcpHandler(
      ({ authInfo }) => {
        const caller = authInfo?.extra?.caller as CallerInfo | undefined;
        if (!caller) throw new Error("MCP request without a caller: serve it through serveMcp");
        return buildServer(caller);
      },
      {
        legacy: "stateless",
        maxSubscriptions: 0,
        onerror: (error) => log.warn("MCP request refused", { error }),
      },
    ),
  );
}

/**
 * POST /mcp after `withSkill` has authenticated and counted the request: the body is read as every
 * JSON body of the API is (size cap, JSON only, no nesting bombs or unstorable text), with room
 * for upload_file's base64 up to MAX_UPLOAD_BYTES, and handed to the SDK with the caller.
 */
export async function serveMcp(req: Request, ctx: ServiceContext): Promise<Response> {
  const body = await readJson(req, jsonUploadCap(env().MAX_UPLOAD_BYTES));
  const caller: CallerInfo = { ctx, req };
  return handler().fetch(req, {
    parsedBody: body ?? null,
    authInfo: { token: "", clientId: ctx.principal.apiKeyId ?? ctx.principal.userId, scopes: [], extra: { caller } },
  });
}
