import { describe, expect, test, vi } from "vitest";
import * as provider from "@/lib/provider/errors";
import * as domain from "@/lib/core/errors";

/**
 * The production build copies a module into several server chunks. A second copy of a module is
 * what `vi.resetModules()` plus a fresh import gives here: errors made by that copy must still be
 * recognised by the guards of this one (and `instanceof` shows why the guards exist).
 */
async function secondCopy() {
  vi.resetModules();
  const copy = {
    provider: await import("@/lib/provider/errors"),
    domain: await import("@/lib/core/errors"),
  };
  expect(copy.provider.ProviderUnavailableError).not.toBe(provider.ProviderUnavailableError);
  return copy;
}

describe("success", () => {
  test("provider errors from another copy of the module are told apart by the guards, where instanceof fails", async () => {
    const copy = await secondCopy();
    const unavailable = new copy.provider.ProviderUnavailableError("local", "result", "not yet", { reason: "not_ready" });
    const open = new copy.provider.CircuitOpenError("local", "submit", 1000);
    const model = new copy.provider.ModelFailedError("local", "result", "nope");
    const rejected = new copy.provider.ProviderRejectedError("fal", "submit", "who are you", { reason: "unauthorized" });

    expect(unavailable instanceof provider.ProviderUnavailableError).toBe(false);
    expect([unavailable, open, model, rejected].map(provider.isProviderError)).toEqual([true, true, true, true]);
    expect([unavailable, open, model, rejected].map(provider.isProviderUnavailable)).toEqual([true, true, false, false]);
    expect([unavailable, open, model, rejected].map(provider.isCircuitOpen)).toEqual([false, true, false, false]);
    expect([unavailable, open, model, rejected].map(provider.isModelFailed)).toEqual([false, false, true, false]);
    expect([unavailable, open, model, rejected].map(provider.isProviderRejected)).toEqual([false, false, false, true]);
    // The HTTP answer of another copy's error is still the right one.
    expect(provider.providerErrorToDomainError(open)).toMatchObject({ code: "provider_error", httpStatus: 503 });
  });

  test("a DomainError from another copy is rendered as itself, not as internal_error", async () => {
    const copy = await secondCopy();
    const err = new copy.domain.DomainError("insufficient_balance", "Balance too low");
    expect(err instanceof domain.DomainError).toBe(false);
    expect(domain.isDomainError(err)).toBe(true);
  });
});

describe("validation", () => {
  test("plain errors and look-alikes are not members of a family", () => {
    const lookalike = Object.assign(new Error("x"), { kind: "unavailable", code: "not_found", status: 404 });
    for (const value of [lookalike, new Error("x"), null, undefined, "ProviderError", { name: "DomainError" }]) {
      expect(provider.isProviderError(value)).toBe(false);
      expect(domain.isDomainError(value)).toBe(false);
    }
  });

  test("the brand is not an own property: it never shows in logs or JSON", () => {
    const err = new provider.ProviderUnavailableError("local", "result", "x");
    expect(Object.getOwnPropertySymbols(err)).toEqual([]);
    expect(JSON.stringify(err)).not.toContain("generation-gateway");
  });
});
