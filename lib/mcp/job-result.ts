import type { CallToolResult } from "@modelcontextprotocol/server";
import { skillResult, type GenerationRow } from "@/lib/generation";
import { resultMedia, type MediaFile } from "./inline-media";
import type { ToolCall } from "./tool";

/** The longest a single call waits for a job: under the 60 s request timeout common MCP clients use. */
export const MAX_WAIT_SECONDS = 55;

const describeFile = (f: MediaFile) => {
  const facts = [f.contentType, f.sizeBytes != null ? `${f.sizeBytes} bytes` : null].filter(Boolean).join(", ");
  return `- ${f.url}${facts ? ` (${facts})` : ""}`;
};

/**
 * A job as a tool result: the skill surface's GenerationResult as structured content (the same
 * object GET /api/v1/requests/{id} answers), a text a model can act on, and a completed job's
 * small images and sound inline (lib/mcp/inline-media.ts).
 */
export async function jobResult(call: ToolCall, row: GenerationRow): Promise<CallToolResult> {
  const result = skillResult(row);
  const id = `request_id ${row.id}`;
  if (row.status === "completed") {
    const { files, blocks } = await resultMedia(call.ctx, row);
    const lead = [
      `Completed (${id}, cost ${result.cost_rub} ₽${result.processing_time_ms != null ? `, ${(result.processing_time_ms / 1000).toFixed(1)} s` : ""}).`,
      ...(files.length ? ["Files:", ...files.map(describeFile)] : []),
    ].join("\n");
    return { content: [{ type: "text", text: `${lead}\n${JSON.stringify(result)}` }, ...blocks], structuredContent: result };
  }
  if (row.status === "failed" || row.status === "cancelled") {
    const how = row.status === "cancelled" ? "Cancelled" : `Failed: ${result.error}`;
    return {
      content: [{ type: "text", text: `${how} (${id}); the charge was refunded.\n${JSON.stringify(result)}` }],
      structuredContent: result,
    };
  }
  const lead =
    `Still ${row.status === "queued" ? "queued" : "running"} (${id}; ${result.cost_rub} ₽ reserved, refunded if it fails). ` +
    `Call get_request with this request_id (wait_seconds up to ${MAX_WAIT_SECONDS}) to wait for the result, or cancel_request while it is queued.`;
  return { content: [{ type: "text", text: `${lead}\n${JSON.stringify(result)}` }], structuredContent: result };
}
