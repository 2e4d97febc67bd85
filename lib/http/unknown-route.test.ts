import { describe, expect, test } from "vitest";
import { call } from "@/test/http";
import { gatewayUnknownRoute, skillUnknownRoute } from "./unknown-route";

describe("unknown API paths", () => {
  test("answer 404 not_found in the gateway envelope with X-Request-ID", async () => {
    const res = await call(gatewayUnknownRoute.POST, "/me/nope", { method: "POST", params: { unknown: ["nope"] } });
    expect(res.status).toBe(404);
    expect(res.body).toEqual({ success: false, error: "not_found", message: expect.any(String) });
    expect(res.headers.get("x-request-id")).toBeTruthy();
  });

  test("answer 404 NOT_FOUND in the skill envelope under /api/v1", async () => {
    const res = await call(skillUnknownRoute.GET, "/api/v1/nope", { params: { unknown: ["nope"] } });
    expect(res.status).toBe(404);
    expect(res.body).toEqual({ error: expect.any(String), code: "NOT_FOUND", details: { reason: "not_found" } });
  });
});
