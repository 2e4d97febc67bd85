import { z } from "zod";
import { defineOperations } from "./operation";
import { modelPathParams } from "./models";

/** One JSON-RPC 2.0 message of the Model Context Protocol (a request, a notification or a response). */
export const mcpMessage = z
  .object({
    jsonrpc: z.literal("2.0"),
    id: z.union([z.string(), z.number()]).optional().meta({ description: "Absent on notifications" }),
    method: z.string().optional().meta({ description: "e.g. initialize, server/discover, tools/list, tools/call" }),
    params: z.record(z.string(), z.unknown()).optional(),
    result: z.record(z.string(), z.unknown()).optional(),
    error: z.object({ code: z.number(), message: z.string(), data: z.unknown().optional() }).optional(),
  })
  .meta({ id: "McpMessage" });

/**
 * The MCP SDK's refusal of a request it cannot serve (406 without `Accept: application/json,
 * text/event-stream`, 400 for a body that is no JSON-RPC message): a JSON-RPC error, `id` null
 * when the request's could not be read.
 */
export const mcpError = z
  .object({
    jsonrpc: z.literal("2.0"),
    id: z.union([z.string(), z.number()]).nullable(),
    error: z.object({ code: z.int(), message: z.string(), data: z.unknown().optional() }),
  })
  .meta({ id: "McpError" });

const MCP_DESCRIPTION = [
  "The Model Context Protocol server: Streamable HTTP, stateless, serving the 2026-07-28 revision and 2025-era clients.",
  "Authenticate with an API key in `Authorization: Bearer <key>` (a missing or refused key is 401 with `WWW-Authenticate: Bearer`).",
  "Tools: `list_models`, `get_model_schema`, `estimate_cost`, `generate`, `get_request`, `cancel_request`, `upload_file`, `get_balance`.",
  "They run on the skill surface's engine: the same ledger and prices, the same `_test_` sandbox, every HTTP request counted against the key,",
  "and `generate` against the tier's requests-per-minute limit shared with `POST /api/v1/generate`. Failures come back as tool results with",
  "`isError: true` carrying the skill code (INSUFFICIENT_BALANCE, RATE_LIMITED, NOT_FOUND, INVALID_PARAMS, PROVIDER_ERROR) and what to do next;",
  "a long `generate` sends progress notifications (`notifications/progress`) from the job's events on an SSE response.",
  "\n\nConnect a client (Claude Code `.mcp.json`, Cursor `mcp.json`, …):\n\n",
  '```json\n{"mcpServers": {"generation-gateway": {"type": "http", "url": "https://<this host>/mcp", "headers": {"Authorization": "Bearer <API key>"}}}}\n```',
].join(" ");

export const agentOperations = defineOperations([
  {
    method: "post",
    path: "/mcp",
    operationId: "mcp",
    summary: "MCP server (Streamable HTTP): the skill surface's tools for AI agents",
    description: MCP_DESCRIPTION,
    tags: ["Agents"],
    surface: "skill",
    auth: "key",
    body: mcpMessage,
    errors: ["unsupported_media_type"],
    responses: {
      200: {
        description:
          "The JSON-RPC response: as `text/event-stream` (`event: message`, `data: <JSON-RPC message>`, progress notifications first), or as `application/json`",
        content: { "application/json": mcpMessage, "text/event-stream": null },
      },
      202: { description: "A notification or response was accepted" },
      400: { description: "A body that is no JSON-RPC message (a JSON-RPC error)", schema: mcpError },
      406: {
        description: "Not acceptable: the request's Accept must name both application/json and text/event-stream (a JSON-RPC error)",
        schema: mcpError,
      },
    },
  },
  {
    method: "get",
    path: "/llms.txt",
    operationId: "getLlmsTxt",
    summary: "The service for language models (llms.txt): how to connect, and every visible model with its price",
    description:
      "Markdown, generated from the catalog on each request: a model an admin adds appears at once, a hidden one never. Each model links to its own llms.txt.",
    tags: ["Agents"],
    surface: "gateway",
    auth: "none",
    responses: { 200: { description: "Markdown (served as text/plain)", contentType: "text/plain" } },
  },
  {
    method: "get",
    path: "/catalog/{modelId}/llms.txt",
    operationId: "getModelLlmsTxt",
    summary: "One model for language models (llms.txt): what it does, price and unit, input with defaults, example calls",
    description:
      "Markdown with the model's compact input schema and the same call on the skill surface, the gateway surface and through MCP. Hidden models are 404.",
    tags: ["Agents"],
    surface: "gateway",
    auth: "none",
    params: modelPathParams,
    errors: ["unknown_model"],
    responses: { 200: { description: "Markdown (served as text/plain)", contentType: "text/plain" } },
  },
]);
