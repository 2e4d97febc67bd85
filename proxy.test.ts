import { NextRequest } from "next/server";
import { describe, expect, test } from "vitest";
import { config, proxy } from "./proxy";

/**
 * proxy.ts's own answers (the request id, page headers and rewrites are e2e's): what it refuses,
 * in which surface's envelope, and a trailing slash, which Next.js no longer redirects
 * (next.config.ts skipTrailingSlashRedirect). e2e/api-edges.spec.ts checks the same on the server.
 */
const send = (method: string, path: string) => proxy(new NextRequest(new URL(path, "http://localhost:3000"), { method }));

describe("validation", () => {
  test("an empty id on the API (a trailing slash) is 400 invalid_params in the surface's envelope, with X-Request-ID", async () => {
    for (const [method, path] of [
      ["DELETE", "/me/keys/"],
      ["GET", "/admin/users/"],
      ["POST", "/run/"],
      ["PUT", "/fal/storage/upload/"],
    ] as const) {
      const res = await send(method, path);
      expect(res.status, path).toBe(400);
      expect(res.headers.get("x-request-id"), path).toBeTruthy();
      expect(await res.json(), path).toMatchObject({ success: false, error: "invalid_params", issues: [{ path: ["path"] }] });
    }
    for (const path of ["/api/v1/requests/", "/mcp/"]) {
      const res = await send("GET", path);
      expect(res.status, path).toBe(400);
      expect(await res.json(), path).toEqual({
        error: "The path ends with an empty segment: an id in it is empty",
        code: "INVALID_PARAMS",
        details: { reason: "invalid_params", issues: [{ path: ["path"], message: "Empty path segment" }] },
      });
    }
  });

  test("a malformed percent-encoding under /api/v1 is refused in the skill envelope, elsewhere in the gateway's", async () => {
    const skill = await send("GET", "/api/v1/requests/%E0%A4%A");
    expect(skill.status).toBe(400);
    expect(await skill.json()).toMatchObject({ code: "INVALID_PARAMS", details: { reason: "invalid_params" } });
    const gateway = await send("GET", "/me/keys/%FF");
    expect(await gateway.json()).toMatchObject({ success: false, error: "invalid_params" });
  });

  test("a page's trailing slash is a 308 to its URL without it, query kept; the matcher sends the API's here", async () => {
    const res = await send("GET", "/catalog/?q=flux");
    expect(res.status).toBe(308);
    expect(res.headers.get("location")).toBe("http://localhost:3000/catalog?q=flux");
    expect((await send("GET", "/")).status).toBe(200);
    expect(config.matcher).toContain("/:path(.+/)");
  });
});
