import { execSync } from "node:child_process";
import { readFileSync } from "node:fs";
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

describe("methods a route does not define", () => {
  test("answer 405 method_not_allowed with Allow and X-Request-ID, in each surface's envelope", async () => {
    const { PUT } = await import("@/app/(gateway)/me/keys/route");
    const res = await call(PUT, "/me/keys", { method: "PUT", body: {} });
    expect(res.status).toBe(405);
    expect(res.body).toEqual({ success: false, error: "method_not_allowed", message: expect.stringContaining("GET or POST") });
    expect(res.headers.get("allow")).toBe("GET, HEAD, OPTIONS, POST");
    expect(res.headers.get("x-request-id")).toBeTruthy();

    const { GET } = await import("@/app/api/v1/generate/route");
    const skill = await call(GET, "/api/v1/generate");
    expect(skill.status).toBe(405);
    expect(skill.body).toEqual({ error: expect.any(String), code: "INVALID_PARAMS", details: { reason: "method_not_allowed" } });
    expect(skill.headers.get("allow")).toBe("OPTIONS, POST");

    const { OPTIONS } = await import("@/app/(gateway)/me/keys/route");
    const options = await call(OPTIONS, "/me/keys", { method: "OPTIONS" });
    expect(options.status).toBe(204);
    expect(options.headers.get("allow")).toBe("GET, HEAD, OPTIONS, POST");
    expect(options.headers.get("x-request-id")).toBeTruthy();
  });

  // Next answers a method a route module does not export with a bare 405 (no body, no request id),
  // and OPTIONS with a 204 without one.
  test("every API route module exports all five methods and OPTIONS, and HEAD where it has no GET", () => {
    const files = execSync("find app -name route.ts", { encoding: "utf8" }).split("\n").filter(Boolean);
    // The routes the proxy does not pass (it sets X-Request-ID on everything else): the API's.
    const api = files.filter((f) => /withGateway|withSkill|UnknownRoute|requestIdOf/.test(readFileSync(f, "utf8")));
    expect(api.length).toBeGreaterThan(60);
    const lacking = api.flatMap((file) => {
      const text = readFileSync(file, "utf8");
      const exported = new Set([
        ...[...text.matchAll(/export (?:const|async function) (GET|HEAD|POST|PUT|PATCH|DELETE|OPTIONS)\b/g)].map((m) => m[1]!),
        ...[...text.matchAll(/export const \{([^}]*)\}/g)].flatMap((m) => m[1]!.split(",").map((s) => s.trim())),
      ]);
      // The catch-alls answer 404 to everything; Next's own OPTIONS there is harmless.
      const wanted = [
        "GET",
        "POST",
        "PUT",
        "PATCH",
        "DELETE",
        ...(exported.has("GET") ? [] : ["HEAD"]),
        ...(/UnknownRoute/.test(text) ? [] : ["OPTIONS"]),
      ];
      return wanted.filter((m) => !exported.has(m)).map((m) => `${m} ${file}`);
    });
    expect(lacking).toEqual([]);
  });
});
