import { validate } from "@readme/openapi-parser";
import { describe, expect, test } from "vitest";
import { call } from "@/test/http";
import { GET } from "./route";

describe("GET /openapi.json", () => {
  test("is a valid OpenAPI 3.1 document", async () => {
    const res = await call(GET, "/openapi.json");
    expect(res.status).toBe(200);
    expect(res.body.openapi).toBe("3.1.0");
    const result = await validate(structuredClone(res.body));
    expect(result.valid ? [] : result.errors).toEqual([]);
  });

  test("documents the system endpoints with their error envelope", async () => {
    const { body } = await call(GET, "/openapi.json");
    expect(Object.keys(body.paths)).toEqual(expect.arrayContaining(["/health", "/changelog.json", "/openapi.json"]));
    expect(body.components.schemas.Error).toBeDefined();
    expect(body.components.securitySchemes.bearerAuth).toMatchObject({ type: "http", scheme: "bearer" });
  });
});
