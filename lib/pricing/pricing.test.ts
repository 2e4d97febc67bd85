import { describe, expect, test } from "vitest";
import { formatDecimal, parseDecimal } from "./decimal";
import { listPriceFor, quote, quoteForInput, quoteForOutput, quoteSummary, settlementDelta, type PricedModel } from "./pricing";

const model = (priceRub: string | null, priceUnit: PricedModel["priceUnit"], discountPercent = "0", creditCost = 0): PricedModel => ({
  priceRub,
  priceUnit,
  discountPercent,
  creditCost,
});

describe("quote", () => {
  test("sub-kopeck prices round up once, at the end: 0.00035 ₽ × 3 images → 0.0011 ₽", () => {
    const q = quoteForInput(model("0.00035", "image"), { num_images: 3 });
    expect(q.credits).toBe(11);
    expect(quoteSummary(q)).toEqual({
      estimatedCostRub: 0.0011,
      estimatedCostCredits: 11,
      estimatedPriceRub: 0.00035,
      priceUnit: "image",
      quantity: 3,
      currency: "RUB",
    });
  });

  test.each([
    // [price, unit, discount, input, quantity, credits]
    ["2.5", "image", "0", {}, "1", 25_000],
    ["2.5", "image", "0", { num_images: 4 }, "4", 100_000],
    ["2.5", "image", "20", { num_images: 4 }, "4", 80_000],
    ["0.00035", "image", "50", { num_images: 3 }, "3", 6], // 0.000525 → 0.0006
    ["1.2", "megapixel", "0", { image_size: "square_hd" }, "1.048576", 12_583], // 1.2582912 → 1.2583
    ["1.2", "megapixel", "0", { image_size: "landscape_16_9", num_images: 2 }, "1.179648", 14_156],
    ["1.2", "megapixel", "0", { image_size: { width: 2048, height: 2048 } }, "4.194304", 50_332],
    ["1.2", "megapixel", "0", { width: 1000, height: 1000 }, "1", 12_000],
    ["1.2", "megapixel", "0", { aspect_ratio: "16:9" }, "1.032192", 12_387],
    ["0.5", "megapixel", "0", { upscale_factor: 2 }, "4.194304", 20_972],
    ["7.5", "second", "0", { duration: "10" }, "10", 750_000],
    ["7.5", "second", "10", { duration: 5 }, "5", 337_500],
    ["7.5", "second", "0", { duration: "6s" }, "6", 450_000],
    ["7.5", "second", "0", {}, "5", 375_000],
    ["0.9", "1k_chars", "0", { text: "a".repeat(1001) }, "2", 18_000],
    ["0.9", "1k_chars", "0", { text: "ж".repeat(1000) }, "1", 9_000],
    ["0.0002", "1k_chars", "0", { input: ["abc", "de"] }, "1", 2],
    ["4", "request", "0", { num_images: 4 }, "1", 40_000],
    ["4", "request", "100", {}, "1", 0],
  ] as const)("%s ₽ per %s, discount %s, input %j → quantity %s, credits %s", (price, unit, discount, input, quantity, credits) => {
    const q = quoteForInput(model(price, unit, discount), input as Record<string, unknown>);
    expect(formatDecimal(q.quantity)).toBe(quantity);
    expect(q.credits).toBe(credits);
  });

  test("a model without priceRub costs its whole-ruble creditCost per request", () => {
    const q = quoteForInput(model(null, null, "0", 3), { num_images: 4 });
    expect(q.unit).toBe("request");
    expect(q.credits).toBe(30_000);
  });

  test("the unit price after discount is exact, not rounded", () => {
    const q = quote(model("0.00035", "image", "12.5"), parseDecimal("1"));
    expect(formatDecimal(q.unitPriceRub)).toBe("0.00030625");
    expect(q.credits).toBe(4);
  });

  test("arithmetic past 2^53 stays exact (BigInt), and an unsafe result is refused", () => {
    // 99,999,999.99999999 ₽ × 16.777216 MP × 66.67 %: the numerator is ~10^31 before the one division.
    const big = quote(model("99999999.99999999", "megapixel", "33.33"), parseDecimal("16.777216"));
    expect(big.credits).toBe(11_185_369_907_200);
    expect(() => quote(model("999999999999.99999999", "megapixel"), parseDecimal("100000"))).toThrow(/safe integer/);
  });

  test("invalid terms are refused rather than charged", () => {
    expect(() => quote(model("1", "image", "101"), parseDecimal("1"))).toThrow(/0–100/);
    expect(() => quote(model("-1", "image"), parseDecimal("1"))).toThrow(/negative/);
  });
});

describe("settle from the output", () => {
  test("megapixels and seconds come from what was produced", () => {
    const mp = model("1", "megapixel");
    const output = {
      images: [
        { width: 1024, height: 1024 },
        { width: 512, height: 512 },
      ],
    };
    expect(quoteForOutput(mp, output, { num_images: 2 }).credits).toBe(13_108); // 1.31072 ₽
    const video = model("7.5", "second");
    expect(quoteForOutput(video, { video: { url: "x", duration: 5.04 } }, { duration: "5" }).credits).toBe(378_000);
    expect(quoteForOutput(model("2", "second"), { audio: { duration: 1.00001 } }, {}).credits).toBe(20_001);
    expect(quoteForOutput(model("2", "second"), { duration_ms: 1500 }, {}).credits).toBe(30_000);
  });

  test("images are counted from the result; missing sizes fall back to the request", () => {
    expect(quoteForOutput(model("2", "image"), { images: [{}, {}] }, { num_images: 4 }).credits).toBe(40_000);
    expect(quoteForOutput(model("1", "megapixel"), { images: [{ url: "x" }] }, { image_size: "square" }).credits).toBe(2_622);
  });

  test("differences of 0.01 ₽ or less are ignored", () => {
    expect(settlementDelta(10_000, 10_100)).toBe(0);
    expect(settlementDelta(10_000, 9_900)).toBe(0);
    expect(settlementDelta(10_000, 10_101)).toBe(101);
    expect(settlementDelta(10_000, 0)).toBe(-10_000);
  });

  test("listPriceFor inverts the discount exactly, or says there is no such price", () => {
    const list = (unit: string, discount: string) => {
      const d = listPriceFor(parseDecimal(unit), parseDecimal(discount), 8);
      return d && formatDecimal(d);
    };
    expect(list("2.88", "20")).toBe("3.6");
    expect(list("0.00028", "20")).toBe("0.00035");
    expect(list("0.0003", "25")).toBe("0.0004");
    expect(list("5", "0")).toBe("5");
    expect(list("1", "30")).toBeNull(); // 1.428571…
    expect(list("0.000000001", "0")).toBeNull(); // 9 decimals
    expect(list("0", "100")).toBeNull();
    expect(list("0.00023331", "12.5")).toBe("0.00026664");
    expect(formatDecimal(quote(model("0.00026664", "image", "12.5"), parseDecimal(1)).unitPriceRub)).toBe("0.00023331");
  });
});
