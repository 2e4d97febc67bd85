import { describe, expect, test, vi } from "vitest";
import { z } from "zod";
import { defineOperations } from "@/lib/http/contracts/operation";
import { DomainError } from "@/lib/core/errors";
import { withGateway, withSkill } from "@/lib/http/handler";
import { json } from "@/lib/http/json";
import { lap } from "@/lib/observability/server-timing";
import { call } from "@/test/http";

const body = z.object({
  prompt: z.string().min(1),
  options: z.object({ num_images: z.number().int().min(1).max(4) }).optional(),
});
const query = z.object({ limit: z.coerce.number().int().min(1).max(200).default(50) });

const base = { method: "post", path: "/echo", summary: "test", tags: [], surface: "gateway", auth: "none", responses: {} } as const;
const ops = defineOperations([
  { ...base, operationId: "echo", body, query },
  { ...base, operationId: "skillEcho", surface: "skill", body },
  { ...base, operationId: "plain" },
  { ...base, operationId: "skillPlain", surface: "skill" },
  { ...base, operationId: "withParams", params: z.object({ id: z.uuid() }) },
]);

const echo = withGateway(ops.echo, ({ body, query }) => json({ body, query }));
const skillEcho = withSkill(ops.skillEcho, ({ body }) => json(body));
const boom = withGateway(ops.plain, () => {
  throw new Error("connection string postgres://admin:hunter2@db/internal leaked?");
});
const skillBoom = withSkill(ops.skillPlain, () => {
  throw new Error("secret internals");
});
const typed = withGateway(ops.plain, () => {
  throw new DomainError("insufficient_balance", "Balance too low", {
    required: 1.5,
    available: 0.25,
    recovery: { action: "topup", url: "/billing/topup", minAmountRub: 100 },
  });
});
const withParams = withGateway(ops.withParams, ({ params }) => json(params));

const timed = withGateway(
  ops.plain,
  async ({ req }) => {
    lap(req, "domain");
    return json({ ok: true });
  },
  { serverTiming: true },
);

/** A body whose stream fails the way Node's does when the client hangs up mid-request. */
const failingBody = (error: Error) =>
  new ReadableStream<Uint8Array>({
    start(controller) {
      controller.enqueue(new TextEncoder().encode('{"prompt":'));
    },
    pull(controller) {
      controller.error(error);
    },
  });

const UUID = /^[0-9a-f-]{36}$/;

describe("success", () => {
  test("valid JSON body and query reach the handler parsed, with X-Request-ID", async () => {
    const res = await call(echo, "/echo?limit=7", { body: { prompt: "a cat" } });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ body: { prompt: "a cat" }, query: { limit: 7 } });
    expect(res.headers.get("x-request-id")).toMatch(UUID);
  });

  test("a request id forwarded by the proxy is kept", async () => {
    const res = await call(echo, "/echo", { body: { prompt: "x" }, headers: { "x-request-id": "req-1234567890" } });
    expect(res.headers.get("x-request-id")).toBe("req-1234567890");
  });

  test("CORS exposes the request id and rate-limit headers", async () => {
    const res = await call(echo, "/echo", { body: { prompt: "x" }, headers: { origin: "https://app.example" } });
    expect(res.headers.get("access-control-allow-origin")).toBe("*");
    expect(res.headers.get("access-control-expose-headers")).toContain("X-RateLimit-Remaining");
    expect(res.headers.get("access-control-expose-headers")).toContain("Retry-After");
  });
});

describe("validation", () => {
  test.each([
    ["malformed JSON", "{not json", "application/json", 400, "invalid_json"],
    ["a non-JSON content type", "prompt=x", "application/x-www-form-urlencoded", 415, "unsupported_media_type"],
  ])("%s → %i %s", async (_, raw, type, status, code) => {
    const res = await call(echo, "/echo", { body: raw, headers: { "content-type": type } });
    expect(res.status).toBe(status);
    expect(res.body).toEqual({ success: false, error: code, message: expect.any(String) });
    expect(res.headers.get("x-request-id")).toMatch(UUID);
  });

  test("invalid body → 400 invalid_body with issues whose paths point at the fields", async () => {
    const res = await call(echo, "/echo", { body: { prompt: "", options: { num_images: 9 } } });
    expect(res.status).toBe(400);
    expect(res.body).toEqual({
      success: false,
      error: "invalid_body",
      message: expect.any(String),
      issues: [
        { path: ["prompt"], message: expect.any(String) },
        { path: ["options", "num_images"], message: expect.any(String) },
      ],
    });
  });

  test("an empty body where one is required → 400 invalid_body", async () => {
    const res = await call(echo, "/echo", { method: "POST" });
    expect(res.status).toBe(400);
    expect(res.body.error).toBe("invalid_body");
    expect(res.body.issues).toEqual([{ path: [], message: expect.any(String) }]);
  });

  test("invalid query → 400 invalid_query with issues", async () => {
    const res = await call(echo, "/echo?limit=500", { body: { prompt: "x" } });
    expect(res.status).toBe(400);
    expect(res.body).toMatchObject({ error: "invalid_query", issues: [{ path: ["limit"] }] });
  });

  test("invalid path param → 400 invalid_params", async () => {
    const res = await call(withParams, "/things/nope", { params: { id: "nope" } });
    expect(res.status).toBe(400);
    expect(res.body).toMatchObject({ error: "invalid_params", issues: [{ path: ["id"] }] });
  });

  // PostgreSQL refuses NUL in text and jsonb: let through, any such value ended in a 500.
  test("a NUL character in the body → 400 invalid_body naming each place, keys included", async () => {
    const res = await call(echo, "/echo", { body: { prompt: "a\u0000b", options: { num_images: 1 }, extra: [{ ["k\u0000"]: "v" }] } });
    expect(res.status).toBe(400);
    expect(res.body).toEqual({
      success: false,
      error: "invalid_body",
      message: expect.stringContaining("prompt"),
      issues: [
        { path: ["prompt"], message: expect.stringContaining("NUL") },
        { path: ["extra", "0", "k\u0000"], message: expect.stringContaining("NUL") },
      ],
    });
    // An escaped backslash before "u0000" is plain text, not a NUL.
    const plain = await call(echo, "/echo", { body: '{"prompt":"\\\\u0000"}', headers: { "content-type": "application/json" } });
    expect(plain.status).toBe(200);
    expect(plain.body.body.prompt).toBe("\\u0000");
  });

  test("a lone surrogate escape (which PostgreSQL cannot store either) → 400 invalid_body; a proper pair passes", async () => {
    const lone = await call(echo, "/echo", { body: '{"prompt":"a\\ud800b"}', headers: { "content-type": "application/json" } });
    expect(lone.status).toBe(400);
    expect(lone.body).toMatchObject({ error: "invalid_body", issues: [{ path: ["prompt"], message: expect.stringContaining("Unicode") }] });
    const pair = await call(echo, "/echo", { body: '{"prompt":"smile \\ud83d\\ude00"}', headers: { "content-type": "application/json" } });
    expect(pair.status).toBe(200);
    expect(pair.body.body.prompt).toBe("smile 😀");
  });

  test("a body nested deeper than 64 levels → 400 invalid_body, however deep; 64 levels pass that check", async () => {
    const nested = (depth: number) => `{"prompt":"x","deep":${"[".repeat(depth)}"[{\\"]"${"]".repeat(depth)}}`;
    for (const depth of [64, 200_000]) {
      const res = await call(echo, "/echo", { body: nested(depth), headers: { "content-type": "application/json" } });
      expect(res.status).toBe(400);
      expect(res.body).toMatchObject({ error: "invalid_body", issues: [{ path: [], message: "Nested deeper than 64 levels" }] });
    }
    // 63 brackets inside the outer object: 64 levels, within the limit (the echo schema drops `deep`).
    const ok = await call(echo, "/echo", { body: nested(63), headers: { "content-type": "application/json" } });
    expect(ok.status).toBe(200);
  });

  // (A NUL in a path is refused by proxy.ts, for pages and API alike: e2e/api-edges.spec.ts.)
  test("a NUL character in the query → 400 invalid_query naming the parameter", async () => {
    const inQuery = await call(echo, "/echo?limit=5&q=a%00", { body: { prompt: "x" } });
    expect(inQuery.status).toBe(400);
    expect(inQuery.body).toMatchObject({ error: "invalid_query", issues: [{ path: ["q"] }] });
    expect(inQuery.headers.get("x-request-id")).toMatch(UUID);
  });

  test("a declared Content-Length over MAX_BODY_BYTES → 413 payload_too_large", async () => {
    const big = "x".repeat(1024 * 1024 + 1);
    const res = await call(echo, "/echo", { body: JSON.stringify({ prompt: big }), headers: { "content-type": "application/json" } });
    expect(res.status).toBe(413);
    expect(res.body).toMatchObject({ success: false, error: "payload_too_large" });
  });

  test("a streamed body is cut off once it passes MAX_BODY_BYTES → 413", async () => {
    let sent = 0;
    const chunk = new Uint8Array(64 * 1024).fill(32);
    const stream = new ReadableStream<Uint8Array>({
      pull(controller) {
        // An endless body: the handler must stop reading, not buffer it all.
        sent += chunk.byteLength;
        controller.enqueue(chunk);
      },
    });
    const res = await call(echo, "/echo", { body: stream, headers: { "content-type": "application/json" } });
    expect(res.status).toBe(413);
    expect(res.body.error).toBe("payload_too_large");
    expect(sent).toBeLessThan(2 * 1024 * 1024);
  });
});

describe("server timing", () => {
  test("a route that opts in answers Server-Timing with every stage and the total", async () => {
    const res = await call(timed, "/timed");
    expect(res.status).toBe(200);
    const stages = (res.headers.get("server-timing") ?? "").split(", ").map((part) => part.split(";")[0]);
    expect(stages).toEqual(["auth", "ratelimit", "parse", "domain", "respond", "total"]);
    expect(res.headers.get("server-timing")).toMatch(/^(\w+;dur=\d+\.\d{2}(, |$))+$/);
  });

  test("other routes answer no Server-Timing", async () => {
    const res = await call(echo, "/echo", { body: { prompt: "a cat" } });
    expect(res.headers.get("server-timing")).toBeNull();
  });
});

describe("errors", () => {
  test("a client that hangs up mid-body is not a server error: empty 499, nothing logged as an error", async () => {
    const stderr = vi.spyOn(process.stderr, "write");
    try {
      const aborted = Object.assign(new Error("aborted"), { code: "ECONNRESET" });
      const res = await call(echo, "/echo", { body: failingBody(aborted), headers: { "content-type": "application/json" } });
      expect(res.status).toBe(499);
      expect(res.text).toBe("");
      expect(res.headers.get("x-request-id")).toMatch(UUID);
      expect(stderr).not.toHaveBeenCalled();
    } finally {
      stderr.mockRestore();
    }
  });

  test("a connection reset that is not the client's (a database, a provider) stays a 500", async () => {
    const reset = Object.assign(new Error("read ECONNRESET"), { code: "ECONNRESET" });
    const res = await call(echo, "/echo", { body: failingBody(reset), headers: { "content-type": "application/json" } });
    expect(res.status).toBe(500);
    expect(res.body).toMatchObject({ success: false, error: "internal_error" });
  });

  test("an unexpected error → 500 internal_error with nothing of its internals", async () => {
    const res = await call(boom, "/boom");
    expect(res.status).toBe(500);
    expect(res.body).toEqual({
      success: false,
      error: "internal_error",
      message: expect.stringContaining(res.headers.get("x-request-id")!),
    });
    expect(res.text).not.toContain("hunter2");
    expect(res.text).not.toContain("stack");
    expect(res.text).not.toContain("handler.test");
  });

  test("typed errors carry their extra fields in the gateway envelope", async () => {
    const res = await call(typed, "/typed");
    expect(res.status).toBe(402);
    expect(res.body).toEqual({
      success: false,
      error: "insufficient_balance",
      message: "Balance too low",
      required: 1.5,
      available: 0.25,
      recovery: { action: "topup", url: "/billing/topup", minAmountRub: 100 },
    });
  });

  test("under /api/v1 errors use the skill envelope", async () => {
    const bad = await call(skillEcho, "/api/v1/echo", { body: { prompt: "" } });
    expect(bad.status).toBe(400);
    expect(bad.body).toEqual({
      error: expect.any(String),
      code: "INVALID_PARAMS",
      details: { reason: "invalid_body", issues: [{ path: ["prompt"], message: expect.any(String) }] },
    });
    const crash = await call(skillBoom, "/api/v1/boom");
    expect(crash.status).toBe(500);
    expect(crash.body).toEqual({ error: expect.any(String), code: "PROVIDER_ERROR", details: { reason: "internal_error" } });
    expect(crash.text).not.toContain("secret internals");
    expect(crash.headers.get("x-request-id")).toMatch(UUID);
  });
});
