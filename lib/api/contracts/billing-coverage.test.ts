import { describe, expect, test } from "vitest";
import { buildOpenApiDocument } from "@/lib/openapi/document";

/** The payments endpoints (issue 6, items 4–6), each with the responses its handler gives. */
const expected = {
  "post /billing/topup": ["201", "400", "401", "502"],
  "get /billing/payments": ["200"],
  "get /billing/payments/{id}": ["200", "404"],
  "get /billing/payments/{id}/receipt": ["302", "404"],
  "post /webhooks/yookassa/notify": ["200", "401", "429", "502"],
  "get /me/payment-methods": ["200", "403"],
  "delete /me/payment-methods/{id}": ["204", "404"],
  "post /me/payment-methods/{id}/default": ["200", "404"],
  "patch /me/auto-topup": ["200", "400", "403"],
};

describe("OpenAPI covers every payments endpoint", () => {
  test("each operation is documented with its statuses", () => {
    const paths = buildOpenApiDocument().paths ?? {};
    for (const [op, statuses] of Object.entries(expected)) {
      const [method, path] = op.split(" ") as [string, string];
      const operation = (paths[path] as Record<string, { responses: Record<string, unknown> }> | undefined)?.[method];
      expect(operation, op).toBeDefined();
      expect(Object.keys(operation!.responses), op).toEqual(expect.arrayContaining(statuses));
    }
  });
});
