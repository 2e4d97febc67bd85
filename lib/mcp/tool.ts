import type { ServiceContext } from "@/lib/auth/context";
import type { CallToolResult, ToolAnnotations } from "@modelcontextprotocol/server";
import type { z } from "zod";

/**
 * What a tool runs with: the HTTP request's context (the key's principal, resolved and counted
 * by `withSkill` exactly as on /api/v1), the request itself, the call's abort signal (the client
 * cancelled or hung up) and `progress`, which sends an MCP progress notification when the client
 * asked for them (a `progressToken`) and does nothing otherwise.
 */
export type ToolCall = {
  ctx: ServiceContext;
  req: Request;
  signal: AbortSignal;
  progress: (message: string) => Promise<void>;
};

/** One MCP tool: its zod input (the JSON Schema clients see is derived from it) and its run. */
export type McpTool<S extends z.ZodObject = z.ZodObject> = {
  name: string;
  title: string;
  /** One paragraph written for a model: what the tool does, when to call it, what comes back. */
  description: string;
  input: S;
  annotations: ToolAnnotations;
  run: (args: z.output<S>, call: ToolCall) => Promise<CallToolResult>;
};

export const defineTool = <S extends z.ZodObject>(tool: McpTool<S>): McpTool<S> => tool;

/** A result as data: compact JSON text for the model, the same object as structured content. */
export function dataResult(data: Record<string, unknown>, lead?: string): CallToolResult {
  const text = JSON.stringify(data);
  return { content: [{ type: "text", text: lead ? `${lead}\n${text}` : text }], structuredContent: data };
}
