import { describe, expect, test } from "vitest";
import { creditsToRub, creditsToWholeRub, formatCredits, kopecksToCredits, rubToCredits } from "./credits";

describe("credits", () => {
  test("1 ₽ = 10,000 credits and 1 kopeck = 100 credits", () => {
    expect(rubToCredits(50)).toBe(500_000);
    expect(rubToCredits("0.0011")).toBe(11);
    expect(kopecksToCredits(50_000)).toBe(5_000_000);
    expect(() => rubToCredits("0.00001")).toThrow(RangeError);
  });

  test("credits → rubles keeps four decimals exactly, including sub-kopeck amounts", () => {
    expect(creditsToRub(11)).toBe(0.0011);
    expect(creditsToRub(12_345_678)).toBe(1234.5678);
    expect(creditsToRub(-25)).toBe(-0.0025);
    expect(creditsToRub(0)).toBe(0);
  });

  test("whole rubles round toward zero", () => {
    expect(creditsToWholeRub(19_999)).toBe(1);
  });

  test("formatting keeps sub-kopeck digits and groups thousands", () => {
    expect(formatCredits(5_000_000)).toBe("500.00 ₽");
    expect(formatCredits(11)).toBe("0.0011 ₽");
    expect(formatCredits(12_345_678_900)).toBe("1,234,567.89 ₽");
    expect(formatCredits(-12_345_678_900)).toBe("-1,234,567.89 ₽");
    expect(formatCredits(5_000_000, "ru")).toBe("500,00 ₽");
    expect(formatCredits(11, "ru")).toBe("0,0011 ₽");
    expect(formatCredits(12_345_678_900, "ru")).toBe("1\u00a0234\u00a0567,89 ₽");
  });
});
