import { describe, expect, test } from "vitest";
import { kopecksToValue, valueToKopecks } from "./amount";

describe("provider amounts", () => {
  test.each([
    [0, "0.00"],
    [5, "0.05"],
    [50, "0.50"],
    [50_000, "500.00"],
    [123_456_789, "1234567.89"],
  ])("%i kopecks ↔ %s", (kopecks, value) => {
    expect(kopecksToValue(kopecks)).toBe(value);
    expect(valueToKopecks(value)).toBe(kopecks);
  });

  test("finer than a kopeck or fractional kopecks are refused", () => {
    expect(() => valueToKopecks("1.005")).toThrow(RangeError);
    expect(() => kopecksToValue(1.5)).toThrow(RangeError);
    expect(valueToKopecks("10")).toBe(1000);
  });
});
