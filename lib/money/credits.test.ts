import { describe, expect, test } from "vitest";
import { creditsToRub, creditsToWholeRub, formatRub, kopecksToCredits, rubToCredits } from "./credits";

describe("credits", () => {
  test("1 ₽ = 10,000 credits and 1 kopeck = 100 credits", () => {
    expect(rubToCredits(50)).toBe(500_000);
    expect(kopecksToCredits(50_000)).toBe(5_000_000);
    expect(() => rubToCredits(1.5)).toThrow(RangeError);
  });

  test("credits → rubles keeps four decimals exactly, including sub-kopeck amounts", () => {
    expect(creditsToRub(11)).toBe(0.0011);
    expect(creditsToRub(12_345_678)).toBe(1234.5678);
    expect(creditsToRub(-25)).toBe(-0.0025);
    expect(creditsToRub(0)).toBe(0);
  });

  test("whole rubles round down", () => {
    expect(creditsToWholeRub(19_999)).toBe(1);
  });

  test("formatting shows sub-kopeck digits only when present", () => {
    expect(formatRub(5_000_000).replace(/\s/g, " ")).toBe("500,00 ₽");
    expect(formatRub(11).replace(/\s/g, " ")).toBe("0,0011 ₽");
  });
});
