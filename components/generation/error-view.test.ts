import { describe, expect, test } from "vitest";
import { errorViewOf } from "./error-view";

const headers = (h: Record<string, string>) => new Headers(h);

describe("an error envelope as the pages show it", () => {
  test("402 insufficient_balance links to the Billing page with the quoted amounts in rubles", () => {
    const body = {
      error: "insufficient_balance",
      message: "Balance too low for this request",
      required: 0.025,
      available: 0.0011,
      recovery: { action: "topup", url: "/billing/topup", minAmountRub: 100 },
    };
    expect(errorViewOf(402, body, headers({ "x-request-id": "req-1" }))).toEqual({
      status: 402,
      code: "insufficient_balance",
      message: "Balance too low for this request",
      fieldIssues: {},
      otherIssues: [],
      topup: { href: "/dashboard/billing", requiredRub: 0.025, availableRub: 0.0011 },
      supportId: "req-1",
    });
  });

  test("400 invalid_body puts each issue beside its field; whole-input and nested issues are kept", () => {
    const body = {
      error: "invalid_body",
      message: "Invalid body",
      issues: [
        { path: ["num_images"], message: "Too big: expected number to be <=4" },
        { path: ["image_size", "width"], message: "Too small" },
        { path: [], message: "Unrecognized key: foo" },
        { path: ["num_images"], message: "a second issue on the same field" },
      ],
    };
    expect(errorViewOf(400, body)).toMatchObject({
      code: "invalid_body",
      fieldIssues: { num_images: "Too big: expected number to be <=4", image_size: "width: Too small" },
      otherIssues: ["Unrecognized key: foo"],
    });
  });

  test("429 carries the Retry-After seconds; a body that is not an envelope still gets a message", () => {
    expect(errorViewOf(429, { error: "rate_limited", message: "Slow down" }, headers({ "retry-after": "12" }))).toMatchObject({
      code: "rate_limited",
      retryAfterSec: 12,
    });
    // The limit the refusal is about, so the page can say why: X-RateLimit-Limit.
    const limited = errorViewOf(
      429,
      { error: "rate_limited", message: "Generation limit reached" },
      headers({ "retry-after": "21", "x-ratelimit-limit": "100" }),
    );
    expect(limited).toMatchObject({ retryAfterSec: 21, limit: 100 });
    expect(
      errorViewOf(503, { error: "provider_error" }, headers({ "retry-after": "5", "x-ratelimit-limit": "100" })).limit,
    ).toBeUndefined();
    expect(errorViewOf(502, null)).toMatchObject({ code: "internal_error", message: "Request failed (502)" });
    expect(errorViewOf(404, "not json")).toMatchObject({ code: "error", message: "Request failed (404)" });
  });
});
