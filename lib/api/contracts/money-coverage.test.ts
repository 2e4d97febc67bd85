import { describe, expect, test } from "vitest";
import { buildOpenApiDocument } from "@/lib/openapi/document";
import { usageWindowNames } from "@/lib/billing/usage/windows";

describe("OpenAPI covers the money read and admin money endpoints", () => {
  test("each operation is documented with its accepted query values", () => {
    const paths = buildOpenApiDocument().paths ?? {};
    const expected = [
      "get /me/balance",
      "get /me/transactions",
      "get /me/usage",
      "get /me/usage/history",
      "get /me/usage/by-model",
      "get /me/usage/by-key",
      "get /api/v1/balance",
      "get /admin/stats",
      "post /admin/users/{id}/credits/grant",
      "post /admin/users/{id}/credits/clawback",
      "get /admin/users/{id}/transactions",
      "get /admin/users/{id}/usage",
      "get /admin/transactions",
      "get /admin/usage/top-users",
    ];
    const documented = new Set(Object.entries(paths).flatMap(([p, ops]) => Object.keys(ops ?? {}).map((m) => `${m} ${p}`)));
    expect(expected.filter((op) => !documented.has(op))).toEqual([]);
    const param = (path: string, name: string) =>
      (paths[path]?.get?.parameters as { name: string; schema: { enum?: string[] } }[]).find((p) => p.name === name)?.schema;
    expect(param("/me/usage/by-model", "window")?.enum).toEqual(usageWindowNames);
    expect(param("/me/usage/history", "granularity")?.enum).toEqual(["hour", "day", "week"]);
    expect(param("/me/transactions", "type")?.enum).toContain("generation_refund");
  });
});
