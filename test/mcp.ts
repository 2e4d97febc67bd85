import { Client, StreamableHTTPClientTransport } from "@modelcontextprotocol/client";
import type { RouteHandler } from "@/lib/http/handler";
import { BASE_URL } from "./http";

export type McpRoute = Partial<Record<"GET" | "POST" | "DELETE", RouteHandler>>;
export type Era = "legacy" | "auto";

/**
 * The MCP SDK's own client over Streamable HTTP, its requests delivered to the /mcp route's
 * exported handlers in process (as Next.js would call them): what a real MCP host sends, without
 * a server. `auto` negotiates the 2026-07-28 revision; `legacy` is the 2025 initialize handshake.
 */
export async function mcpClient(route: McpRoute, key: string | null, era: Era = "legacy"): Promise<Client> {
  const client = new Client({ name: "gateway-tests", version: "1.0.0" }, { versionNegotiation: { mode: era } });
  const transport = new StreamableHTTPClientTransport(new URL("/mcp", BASE_URL), {
    requestInit: key ? { headers: { authorization: `Bearer ${key}` } } : {},
    fetch: async (url, init) => {
      const req = new Request(url, init);
      const handler = route[req.method as keyof McpRoute];
      if (!handler) return new Response(null, { status: 405 });
      return handler(req, { params: Promise.resolve({}) });
    },
  });
  await client.connect(transport);
  return client;
}

type Content = { type: string; text?: string; data?: string; mimeType?: string };

/** A tool result's first text block. */
export const textOf = (result: { content?: unknown }): string =>
  ((result.content as Content[] | undefined) ?? []).find((c) => c.type === "text")?.text ?? "";
