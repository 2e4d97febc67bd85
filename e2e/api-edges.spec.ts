import { expect, test } from "@playwright/test";
import { baseURL } from "../playwright.config";

// The app is served from 127.0.0.1 (APP_URL); the same server under `localhost` is another origin,
// so a script on a page there calling the app makes the browser send a real CORS preflight first.
// (That way round: the pages' policy lets their scripts call their own origin and APP_URL's only.)
const otherOrigin = baseURL.replace("127.0.0.1", "localhost");

test("a browser script on another origin calls the API with a bearer key: the preflight passes and the answer is readable", async ({
  page,
}) => {
  await page.goto(`${otherOrigin}/`);
  const answer = await page.evaluate(async (api) => {
    const res = await fetch(`${api}/me`, { headers: { authorization: "Bearer gw_live_not_a_real_key" } });
    return { status: res.status, requestId: res.headers.get("x-request-id"), body: await res.json() };
  }, baseURL);
  expect(answer.status).toBe(401);
  expect(answer.requestId).toBeTruthy();
  expect(answer.body).toMatchObject({ success: false, error: "unauthorized" });
});

test("an API preflight is answered with the CORS headers and X-Request-ID, on both surfaces", async ({ request }) => {
  for (const path of ["/run/fal-ai/flux/schnell", "/api/v1/generate", "/me/uploads"]) {
    const res = await request.fetch(path, {
      method: "OPTIONS",
      headers: {
        origin: "https://app.example",
        "access-control-request-method": "POST",
        "access-control-request-headers": "authorization, content-type",
      },
    });
    expect(res.status(), path).toBe(204);
    expect(res.headers()["access-control-allow-origin"], path).toBe("*");
    expect(res.headers()["access-control-allow-headers"], path).toContain("Authorization");
    expect(res.headers()["access-control-allow-methods"], path).toContain("POST");
    expect(res.headers()["x-request-id"], path).toBeTruthy();
  }
});

test("a method a route does not define is 405 in the envelope, with Allow and X-Request-ID", async ({ request }) => {
  for (const [method, path, allow] of [
    ["PUT", "/me/keys", "GET, HEAD, OPTIONS, POST"],
    ["DELETE", "/run/fal-ai/flux/schnell", "OPTIONS, POST"],
    ["POST", "/health", "GET, HEAD, OPTIONS"],
  ] as const) {
    const res = await request.fetch(path, { method, data: method === "DELETE" ? undefined : {} });
    expect(res.status(), path).toBe(405);
    expect(res.headers()["allow"], path).toBe(allow);
    expect(res.headers()["x-request-id"], path).toBeTruthy();
    expect(await res.json()).toMatchObject({ success: false, error: "method_not_allowed" });
  }
  // A plain OPTIONS (no preflight) lists the methods, with X-Request-ID too.
  const options = await request.fetch("/me/keys", { method: "OPTIONS" });
  expect(options.status()).toBe(204);
  expect(options.headers()["allow"]).toBe("GET, HEAD, OPTIONS, POST");
  expect(options.headers()["x-request-id"]).toBeTruthy();
});

test("a malformed percent-encoding in the path is 400 invalid_params with X-Request-ID, not Next's bare 500", async ({ request }) => {
  for (const path of ["/me/keys/%FF", "/run/fal-ai/%zz", "/api/v1/requests/%E0%A4%A", "/catalog/%FF"]) {
    const res = await request.fetch(path, {
      method: path.startsWith("/run") ? "POST" : "GET",
      data: path.startsWith("/run") ? {} : undefined,
    });
    expect(res.status(), path).toBe(400);
    expect(res.headers()["x-request-id"], path).toBeTruthy();
    // The skill surface answers in its own envelope.
    expect(await res.json()).toMatchObject(
      path.startsWith("/api/v1")
        ? { code: "INVALID_PARAMS", details: { reason: "invalid_params" } }
        : { success: false, error: "invalid_params" },
    );
  }
  // A well-formed escape still reaches its route.
  const model = await request.get("/models/fal-ai%2Fflux%2Fschnell");
  expect(model.status()).toBe(200);
  expect((await model.json()).modelId).toBe("fal-ai/flux/schnell");
});

test("a NUL in a URL is 400 before any page or route reaches the database", async ({ request }) => {
  for (const [path, code] of [
    ["/me/keys/a%00b", "invalid_params"],
    ["/dashboard/activity/a%00b", "invalid_params"],
    ["/dashboard/admin/users?q=a%00", "invalid_query"],
    ["/catalog?q=%00", "invalid_query"],
  ] as const) {
    const res = await request.fetch(path, { method: path.startsWith("/me/") ? "DELETE" : "GET" });
    expect(res.status(), path).toBe(400);
    expect(res.headers()["x-request-id"], path).toBeTruthy();
    expect(await res.json()).toMatchObject({ success: false, error: code });
  }
  // The API's query strings skip the proxy; its wrapper names the parameter.
  const res = await request.get("/models?q=a%00");
  expect(res.status()).toBe(400);
  expect(await res.json()).toMatchObject({ error: "invalid_query", issues: [{ path: ["q"] }] });
});

test("an empty id (a trailing slash) is 400 invalid_params in the envelope with X-Request-ID, not Next's 308; a page's URL still loses it", async ({
  request,
}) => {
  for (const [method, path] of [
    ["DELETE", "/me/keys/"],
    ["GET", "/me/keys/"],
    ["GET", "/billing/payments/"],
    ["POST", "/run/"],
    ["GET", "/api/v1/requests/"],
    ["POST", "/mcp/"],
  ] as const) {
    const res = await request.fetch(path, { method, maxRedirects: 0 });
    expect(res.status(), `${method} ${path}`).toBe(400);
    expect(res.headers()["x-request-id"], path).toBeTruthy();
    expect(await res.json()).toMatchObject(
      /^\/(api\/v1|mcp)\//.test(path)
        ? { code: "INVALID_PARAMS", details: { reason: "invalid_params" } }
        : { success: false, error: "invalid_params" },
    );
  }
  const page = await request.get("/catalog/?q=flux", { maxRedirects: 0 });
  expect(page.status()).toBe(308);
  expect(page.headers()["location"]).toMatch(/\/catalog\?q=flux$/);
});

test("a path under /api/fal/proxy or /mcp that no route serves is the JSON 404 envelope, not the HTML page", async ({ request }) => {
  for (const path of ["/api/fal/proxy/fal-ai/flux/dev", "/mcp/sse"]) {
    const res = await request.get(path);
    expect(res.status(), path).toBe(404);
    expect(res.headers()["content-type"], path).toContain("application/json");
    expect(res.headers()["x-request-id"], path).toBeTruthy();
  }
});

test("small API answers go out as they are; a large listing and a page are gzipped for a client that accepts it", async ({ request }) => {
  const gzip = { "accept-encoding": "gzip" };
  for (const path of ["/health", "/me"]) {
    const res = await request.get(path, { headers: gzip });
    expect(res.headers()["content-encoding"], path).toBeUndefined();
    expect(res.headers()["cache-control"], path).toContain("no-transform");
  }
  const listing = await request.get("/models?limit=50", { headers: gzip });
  expect(listing.status()).toBe(200);
  expect(listing.headers()["content-encoding"]).toBe("gzip");
  expect(((await listing.json()) as { items: unknown[] }).items.length).toBeGreaterThan(0);
  expect((await request.get("/", { headers: gzip })).headers()["content-encoding"]).toBe("gzip");
});
