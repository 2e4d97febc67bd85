import { describe, expect, test } from "vitest";
import { GET } from "./route";

const docs = (headers: Record<string, string> = {}) => GET(new Request("http://localhost:3000/docs", { headers }));

describe("GET /docs", () => {
  test("an English page loading Scalar and the document from the gateway only, without web fonts, proxy or telemetry", async () => {
    const res = await docs();
    expect(res.status).toBe(200);
    expect(res.headers.get("content-type")).toBe("text/html; charset=utf-8");
    const html = await res.text();
    expect(html).toMatch(/^<!doctype html>\s*<html lang="en">/);
    // The bundle is preloaded and run after the first paint, not a parser-blocking <script src>.
    expect(html).toContain('<link rel="preload" href="/docs/scalar.js" as="script" />');
    expect(html).toContain('bundle.src = "/docs/scalar.js"');
    expect(html).not.toMatch(/<script src=/);
    expect(html.match(/\b(?:https?:)?\/\/[\w.-]+/g) ?? []).toEqual([]);
    const config = JSON.parse(/createApiReference\("#app", (.*)\);\n/.exec(html)![1]!);
    expect(config).toMatchObject({ url: "/openapi.json", withDefaultFonts: false, telemetry: false, agent: { disabled: true } });
    expect(config).not.toHaveProperty("proxyUrl");
  });

  test("the product's header leads back to the site, in the visitor's language", async () => {
    const en = await (await docs()).text();
    expect(en).toContain('<header class="gw-header" lang="en">');
    expect(en).toContain('<a href="/" class="gw-logo">');
    expect(en).toContain('<a href="/catalog">Models</a>');
    expect(en).toContain('<a href="/docs" aria-current="page">API reference</a>');
    expect(en).toContain('<a href="/dashboard">Dashboard</a>');

    const byCookie = await docs({ cookie: "theme=dark; gw_locale=ru" });
    expect(byCookie.headers.get("vary")).toContain("Cookie");
    const ru = await byCookie.text();
    expect(ru).toContain('<header class="gw-header" lang="ru">');
    expect(ru).toContain('<a href="/catalog">Модели</a>');
    expect(ru).toContain("Загружаем справочник API…");
    // The reference itself stays English.
    expect(ru).toMatch(/<html lang="en">/);
    expect(await (await docs({ "accept-language": "ru-RU,ru;q=0.9" })).text()).toContain('<a href="/dashboard">Кабинет</a>');
  });
});
