import { describe, expect, test } from "vitest";
import { ceilDiv, compareDecimal, formatDecimal, parseDecimal } from "./decimal";
import { creditsToRub, formatCredits, formatPriceRub, rubToCredits } from "./credits";

describe("parseDecimal / formatDecimal", () => {
  test.each([
    ["0.00035", 35n, 5, "0.00035"],
    ["12", 12n, 0, "12"],
    ["1.2300", 123n, 2, "1.23"],
    ["1e-7", 1n, 7, "0.0000001"],
    ["2.5E3", 2500n, 0, "2500"],
    [".5", 5n, 1, "0.5"],
    ["-3.50", -35n, 1, "-3.5"],
    [0.1, 1n, 1, "0.1"],
    [1e-7, 1n, 7, "0.0000001"],
    ["0012.000", 12n, 0, "12"],
  ])("%s → %s × 10^-%i → %s", (input, units, scale, text) => {
    const d = parseDecimal(input);
    expect(d).toEqual({ units, scale });
    expect(formatDecimal(d)).toBe(text);
  });

  test.each(["", ".", "abc", "1.2.3", "1e", "0x10", "1,5", NaN, Infinity])("%s is refused", (input) => {
    expect(() => parseDecimal(input as string)).toThrow(/Not a finite decimal/);
  });

  test("compare and ceilDiv are exact", () => {
    expect(compareDecimal(parseDecimal("0.1"), parseDecimal("0.10"))).toBe(0);
    expect(compareDecimal(parseDecimal("0.00035"), parseDecimal("0.0004"))).toBe(-1);
    expect(ceilDiv(10n, 3n)).toBe(4n);
    expect(ceilDiv(9n, 3n)).toBe(3n);
    expect(ceilDiv(0n, 3n)).toBe(0n);
  });
});

describe("credits", () => {
  test("credits ↔ rubles are exact at 0.0001 ₽", () => {
    expect(creditsToRub(11)).toBe(0.0011);
    expect(creditsToRub(1_234_567)).toBe(123.4567);
    expect(rubToCredits("1.5")).toBe(15_000);
    expect(rubToCredits(100)).toBe(1_000_000);
    expect(() => rubToCredits("0.00001")).toThrow(/finer than/);
  });

  test("people see every significant digit, in their locale's style (English by default)", () => {
    expect(formatPriceRub("0.00035", "ru")).toBe("0,00035 ₽");
    expect(formatPriceRub("3.5", "ru")).toBe("3,50 ₽");
    expect(formatPriceRub("1234567.8", "ru")).toBe("1\u00a0234\u00a0567,80 ₽");
    expect(formatCredits(11, "ru")).toBe("0,0011 ₽");
    expect(formatCredits(1_000_000, "ru")).toBe("100,00 ₽");
    expect(formatPriceRub("0.00035")).toBe("0.00035 ₽");
    expect(formatPriceRub("1234567.8")).toBe("1,234,567.80 ₽");
    expect(formatCredits(1_000_000, "en")).toBe("100.00 ₽");
  });
});
