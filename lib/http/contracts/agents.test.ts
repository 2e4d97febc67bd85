import { describe, expect, test } from "vitest";
import { buildOpenApiDocument } from "@/lib/site/openapi/document";

describe("OpenAPI covers the agents' entry points", () => {
  test.each([
    ["/mcp", "post", "mcp", ["401", "403", "429", "413"]],
    ["/llms.txt", "get", "getLlmsTxt", ["500"]],
    ["/catalog/{modelId}/llms.txt", "get", "getModelLlmsTxt", ["404"]],
  ])("%s %s is documented as %s with its errors", (path, method, operationId, errors) => {
    const op = (buildOpenApiDocument().paths as Record<string, Record<string, any>>)[path]![method];
    expect(op).toMatchObject({ operationId, tags: ["Agents"] });
    expect(Object.keys(op.responses)).toEqual(expect.arrayContaining(["200", ...errors]));
  });

  test("/mcp answers in the skill envelope; the top of /docs shows an MCP client config with the server URL and the key header", () => {
    const doc = buildOpenApiDocument("https://gw.example.com") as any;
    expect(doc.paths["/mcp"].post.responses["401"].content["application/json"].schema.$ref).toBe("#/components/schemas/SkillError");
    expect(doc.paths["/llms.txt"].get.responses["200"].content).toHaveProperty("text/plain");
    expect(doc.info.description).toContain('"url": "https://gw.example.com/mcp"');
    expect(doc.info.description).toContain('"Authorization": "Bearer YOUR_API_KEY"');
  });
});
