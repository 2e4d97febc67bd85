import { describe, expect, test } from "vitest";
import { buildOpenApiDocument } from "@/lib/site/openapi/document";

describe("OpenAPI covers the catalog", () => {
  test.each([
    ["/models", "get", "listModels"],
    ["/models/{modelId}", "get", "getModel"],
    ["/models/{modelId}/estimate", "post", "estimateModel"],
    ["/api/v1/models", "get", "skillListModels"],
    ["/api/v1/models/{modelId}/schema", "get", "skillGetModelSchema"],
    ["/admin/models", "get", "adminListModels"],
    ["/admin/models", "post", "adminUpsertModel"],
    ["/admin/models", "delete", "adminDeleteModel"],
    ["/admin/models/sync", "post", "adminSyncModel"],
    ["/admin/models/sync-catalog", "post", "adminSyncCatalog"],
    ["/admin/models/routes", "get", "adminGetModelRoutes"],
    ["/admin/models/routes", "put", "adminReplaceModelRoutes"],
  ])("%s %s is documented as %s with its errors", (path, method, operationId) => {
    const op = (buildOpenApiDocument().paths as Record<string, Record<string, any>>)[path]![method];
    expect(op.operationId).toBe(operationId);
    expect(Object.keys(op.responses)).toContain("500");
  });

  test("the list documents every query rule, and the skill surface its own error envelope", () => {
    const doc = buildOpenApiDocument() as any;
    const names = doc.paths["/models"].get.parameters.map((p: { name: string }) => p.name);
    expect(names).toEqual(["category", "lab", "tag", "search", "sort", "includeCommunity", "limit", "offset"]);
    expect(doc.paths["/models/{modelId}"].get.responses["404"].description).toContain("unknown_model");
    expect(doc.paths["/api/v1/models/{modelId}/schema"].get.responses["404"].content["application/json"].schema.$ref).toBe(
      "#/components/schemas/SkillError",
    );
  });
});
