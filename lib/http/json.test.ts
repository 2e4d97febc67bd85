import { describe, expect, it } from "vitest";
import { json } from "./json";

describe("json()", () => {
  it("a small answer says no-transform beside its own Cache-Control, keeping status, type and body", async () => {
    const res = json({ ok: true }, { status: 201, headers: { "Cache-Control": "no-store", "X-Request-ID": "r1" } });
    expect(res.status).toBe(201);
    expect(res.headers.get("content-type")).toBe("application/json");
    expect(res.headers.get("cache-control")).toBe("no-store, no-transform");
    expect(res.headers.get("x-request-id")).toBe("r1");
    expect(await res.json()).toEqual({ ok: true });
    expect(json([]).headers.get("cache-control")).toBe("no-transform");
  });

  it("an answer of 1 KB or more is left to compression, counted in UTF-8 bytes", async () => {
    // 600 two-byte characters: 600 characters, 1,200+ bytes.
    const wide = json({ text: "я".repeat(600) });
    expect(wide.headers.get("cache-control")).toBeNull();
    expect(((await wide.json()) as { text: string }).text).toHaveLength(600);
    expect(json({ text: "a".repeat(1_100) }).headers.get("cache-control")).toBeNull();
  });

  it("a type the caller set is kept; a value with no JSON form is refused", () => {
    expect(json({}, { headers: { "content-type": "application/problem+json" } }).headers.get("content-type")).toBe(
      "application/problem+json",
    );
    expect(() => json(undefined)).toThrow(TypeError);
  });
});
