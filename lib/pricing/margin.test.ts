import { describe, expect, test } from "vitest";
import { unitMargin } from "./margin";

describe("unitMargin", () => {
  test("price less cost, exact, and its share of the price to two decimals", () => {
    expect(unitMargin("0.045", "0.03")).toEqual({ marginRub: 0.015, marginPercent: 33.33 });
    expect(unitMargin("0.045", 0.05)).toEqual({ marginRub: -0.005, marginPercent: -11.11 });
    expect(unitMargin("0.1", "0.00000001")).toEqual({ marginRub: 0.09999999, marginPercent: 100 });
    expect(unitMargin("0.1", "0.00005")).toEqual({ marginRub: 0.09995, marginPercent: 99.95 });
    expect(unitMargin(3, "1")).toEqual({ marginRub: 2, marginPercent: 66.67 });
    expect(unitMargin(8, "1")).toEqual({ marginRub: 7, marginPercent: 87.5 });
  });

  test("an unknown cost has no margin; a free model has no percentage", () => {
    expect(unitMargin("0.5", null)).toEqual({ marginRub: null, marginPercent: null });
    expect(unitMargin("0", "0.2")).toEqual({ marginRub: -0.2, marginPercent: null });
  });
});
