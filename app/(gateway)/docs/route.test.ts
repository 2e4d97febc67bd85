import { describe, expect, test } from "vitest";
import { GET } from "./route";

describe("GET /docs", () => {
  test("an English page loading Scalar and the document from the gateway only, without web fonts, proxy or telemetry", async () => {
    const res = await GET();
    expect(res.status).toBe(200);
    expect(res.headers.get("content-type")).toBe("text/html; charset=utf-8");
    const html = await res.text();
    expect(html).toMatch(/^<!doctype html>\s*<html lang="en">/);
    expect(html).toContain('<script src="/docs/scalar.js"></script>');
    expect(html.match(/\b(?:https?:)?\/\/[\w.-]+/g) ?? []).toEqual([]);
    const config = JSON.parse(/createApiReference\("#app", (.*)\);<\/script>/.exec(html)![1]!);
    expect(config).toMatchObject({ url: "/openapi.json", withDefaultFonts: false, telemetry: false, agent: { disabled: true } });
    expect(config).not.toHaveProperty("proxyUrl");
  });
});
