import { createHash } from "node:crypto";
import { NextRequest } from "next/server";
import { describe, expect, test } from "vitest";
import { GET as DOCS } from "@/app/(gateway)/docs/route";
import { proxy } from "@/proxy";
import { call } from "@/test/http";
import { withEnv } from "@/test/env";

/**
 * Field findings item 5: pages sent no security headers. Every page the proxy passes gets a strict
 * policy (scripts by a fresh nonce, which Next.js reads from the request and stamps on its own
 * scripts), no framing, and HSTS behind an https APP_URL; /docs sets its own policy with the hashes
 * of its inline scripts. The pages working under it in Chromium: e2e/page-security.spec.ts.
 */

const pass = (path: string) => proxy(new NextRequest(new URL(path, "http://localhost:3000")));
const NONCE_POLICY = /^script-src 'nonce-([A-Za-z0-9+/]{22}==)' 'strict-dynamic'; /;

describe("pages", () => {
  test.each(["/", "/dashboard/keys", "/signin", "/catalog/fal-ai/flux/schnell", "/no-such-page"])(
    "%s: a nonce policy, also handed to the page's render, no framing, no HSTS over http",
    (path) => {
      const res = pass(path);
      const policy = res.headers.get("content-security-policy")!;
      expect(policy).toMatch(NONCE_POLICY);
      for (const directive of [
        "default-src 'self'",
        "object-src 'none'",
        "base-uri 'none'",
        "frame-ancestors 'none'",
        "form-action 'self' http://localhost:3000",
        "connect-src 'self' http://localhost:3000",
        "img-src 'self' data: blob: https: http://localhost:3000",
        "media-src 'self' data: blob: https: http://localhost:3000",
      ]) {
        expect(policy.split("; ")).toContain(directive);
      }
      expect(policy).not.toContain("unsafe-eval");
      expect(policy).not.toContain("upgrade-insecure-requests");
      expect(res.headers.get("x-frame-options")).toBe("DENY");
      expect(res.headers.get("referrer-policy")).toBe("strict-origin-when-cross-origin");
      expect(res.headers.get("strict-transport-security")).toBeNull();
      // A redirect (the dashboard without a session) carries no render, so no request headers.
      if (res.headers.get("x-middleware-override-headers")) {
        expect(res.headers.get("x-middleware-request-content-security-policy")).toBe(policy);
      }
    },
  );

  test("each response gets its own nonce", () => {
    const nonces = new Set(Array.from({ length: 20 }, () => NONCE_POLICY.exec(pass("/").headers.get("content-security-policy")!)![1]));
    expect(nonces.size).toBe(20);
  });

  test("a client's own policy request header does not reach the render", () => {
    const res = proxy(
      new NextRequest("http://localhost:3000/", { headers: { "content-security-policy": "script-src 'nonce-chosenbyclient'" } }),
    );
    expect(res.headers.get("x-middleware-request-content-security-policy")).toBe(res.headers.get("content-security-policy"));
  });

  test("behind an https APP_URL: HSTS, and insecure subresources upgraded", async () => {
    await withEnv({ APP_URL: "https://gateway.example.com" }, async () => {
      const res = pass("/");
      expect(res.headers.get("strict-transport-security")).toBe("max-age=31536000");
      expect(res.headers.get("content-security-policy")!.split("; ")).toEqual(
        expect.arrayContaining(["upgrade-insecure-requests", "connect-src 'self' https://gateway.example.com"]),
      );
    });
  });

  test("stored files on S3 may be shown from their display base", async () => {
    await withEnv(
      { S3_BUCKET: "media", S3_ENDPOINT: "http://127.0.0.1:9000", S3_PUBLIC_URL: "http://cdn.example.test/media" },
      async () => {
        const policy = pass("/dashboard").headers.get("content-security-policy")!;
        expect(policy.split("; ")).toContain("img-src 'self' data: blob: https: http://localhost:3000 http://cdn.example.test");
      },
    );
    await withEnv({ S3_BUCKET: "media", S3_ENDPOINT: "http://127.0.0.1:9000" }, async () => {
      const policy = pass("/dashboard").headers.get("content-security-policy")!;
      expect(policy.split("; ")).toContain("media-src 'self' data: blob: https: http://localhost:3000 http://127.0.0.1:9000");
    });
  });
});

describe("/docs", () => {
  test("the proxy leaves the policy to the page; its policy allows exactly its own inline scripts", async () => {
    const proxied = pass("/docs");
    expect(proxied.headers.get("content-security-policy")).toBeNull();
    expect(proxied.headers.get("x-frame-options")).toBe("DENY");

    const res = await call(DOCS, "/docs");
    expect(res.status).toBe(200);
    const policy = res.headers.get("content-security-policy")!;
    const inline = [...res.text.matchAll(/<script>([\s\S]*?)<\/script>/g)].map((m) => m[1]!);
    expect(inline).toHaveLength(2);
    const hashes = inline.map((s) => `'sha256-${createHash("sha256").update(s).digest("base64")}'`);
    expect(policy.split("; ")[0]).toBe(`script-src 'self' ${hashes.join(" ")}`);
    expect(policy.split("; ")).toEqual(expect.arrayContaining(["frame-ancestors 'none'", "object-src 'none'"]));
  });
});
