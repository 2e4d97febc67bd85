import { describe, expect, test } from "vitest";
import en from "@/messages/en.json";
import ru from "@/messages/ru.json";
import { fromAcceptLanguage, pickLocale } from "../core/locales";
import { exactMoney, formatFor, formatMoney, formatRubles } from "./format";

/** Every key path of a messages tree ("keys.title", …). */
const paths = (tree: object, prefix = ""): string[] =>
  Object.entries(tree).flatMap(([k, v]) => (typeof v === "object" && v !== null ? paths(v, `${prefix}${k}.`) : [`${prefix}${k}`]));

describe("locale", () => {
  describe("success", () => {
    test("the cookie's choice wins, then Accept-Language by quality, then English", () => {
      expect(pickLocale({ cookie: "ru", acceptLanguage: "en-US,en;q=0.9" })).toBe("ru");
      expect(pickLocale({ cookie: "en", acceptLanguage: "ru-RU,ru;q=0.9" })).toBe("en");
      expect(pickLocale({ cookie: null, acceptLanguage: "ru-RU,ru;q=0.9,en-US;q=0.8" })).toBe("ru");
      expect(pickLocale({ acceptLanguage: "de-DE, en;q=0.5, ru;q=0.7" })).toBe("ru");
      expect(pickLocale({ acceptLanguage: "de-DE,fr;q=0.9" })).toBe("en");
      expect(pickLocale({})).toBe("en");
    });
  });

  describe("validation", () => {
    test("an unknown cookie value or a malformed header falls through to the next source", () => {
      expect(pickLocale({ cookie: "xx", acceptLanguage: "ru" })).toBe("ru");
      expect(fromAcceptLanguage("ru;q=0, en;q=0.1")).toBe("en");
      expect(fromAcceptLanguage(";;,")).toBeUndefined();
      expect(fromAcceptLanguage("ru;q=abc")).toBeUndefined();
    });
  });
});

describe("formatFor", () => {
  describe("success", () => {
    test("numbers, money, quantities, durations and dates follow the locale, every digit kept", () => {
      const e = formatFor("en");
      const r = formatFor("ru");
      expect([e.number(1234567.5), r.number(1234567.5)]).toEqual(["1,234,567.5", "1\u00a0234\u00a0567,5"]);
      expect([e.money(5_000_000, "balance"), r.money(5_000_000, "balance")]).toEqual(["500.00\u00a0₽", "500,00\u00a0₽"]);
      expect([e.money(11, "charge"), r.money(11, "charge")]).toEqual(["0.0011\u00a0₽", "0,0011\u00a0₽"]);
      expect([e.rubles("0.00035", "unitPrice"), r.rubles(0.27, "unitPrice")]).toEqual(["0.00035\u00a0₽", "0,27\u00a0₽"]);
      expect(e.quantity(1.048576, "megapixel")).toBe("1.048576 megapixels");
      expect(r.quantity(1.048576, "megapixel")).toBe("1,048576 мегапикселя");
      expect([r.quantity(1, "image"), r.quantity(3, "image"), r.quantity(5, "image"), r.quantity(21, "image")]).toEqual([
        "1 изображение",
        "3 изображения",
        "5 изображений",
        "21 изображение",
      ]);
      expect([e.duration(850), e.duration(12_340), r.duration(125_000), e.duration(null)]).toEqual(["850 ms", "12.3 s", "2 мин 5 с", "—"]);
      expect(e.dateTime("2026-11-05T04:07:00.000Z")).toBe("5 Nov 2026, 04:07 UTC");
      expect(r.dateTime("2026-11-05T04:07:00.000Z")).toBe("5 нояб. 2026, 04:07 UTC");
      expect(e.dateTime(null, "never")).toBe("never");
    });
  });
});

describe("formatMoney", () => {
  const both = (credits: number, kind: "balance" | "charge" | "unitPrice") => [
    formatMoney(credits, kind, "en"),
    formatMoney(credits, kind, "ru"),
  ];

  describe("success", () => {
    test("a balance is shown to the kopeck: always two decimals, thousands grouped as Intl groups them", () => {
      expect(both(5_000_000, "balance")).toEqual(["500.00\u00a0₽", "500,00\u00a0₽"]);
      expect(both(0, "balance")).toEqual(["0.00\u00a0₽", "0,00\u00a0₽"]);
      expect(both(12_345_678_900, "balance")).toEqual(["1,234,567.89\u00a0₽", "1\u00a0234\u00a0567,89\u00a0₽"]);
      expect(both(7_447_150, "balance")).toEqual(["744.71\u00a0₽", "744,71\u00a0₽"]);
      // The same separators Intl prints for the locale (ICU: U+00A0 groups ru, before "₽" too).
      expect(formatMoney(12_345_678_900, "balance", "ru")).toBe(
        new Intl.NumberFormat("ru", { style: "currency", currency: "RUB" }).format(1_234_567.89),
      );
    });

    test("a balance holding a fraction of a kopeck shows the kopecks it holds, rounded down, and the exact amount apart", () => {
      expect(both(4_949_982, "balance")).toEqual(["494.99\u00a0₽", "494,99\u00a0₽"]);
      expect(both(99, "balance")).toEqual(["0.00\u00a0₽", "0,00\u00a0₽"]);
      expect([exactMoney(4_949_982, "en"), exactMoney(4_949_982, "ru")]).toEqual(["494.9982\u00a0₽", "494,9982\u00a0₽"]);
      expect(exactMoney(7_447_150, "en")).toBe("744.715\u00a0₽");
      // Whole kopecks are the whole amount: nothing to add.
      expect([exactMoney(5_000_000, "en"), exactMoney(5_000_100, "ru"), exactMoney(0, "en")]).toEqual([null, null, null]);
    });

    test("a charge keeps every digit it has, trailing zeros trimmed, at least two decimals", () => {
      expect(both(11, "charge")).toEqual(["0.0011\u00a0₽", "0,0011\u00a0₽"]);
      expect(both(14_580, "charge")).toEqual(["1.458\u00a0₽", "1,458\u00a0₽"]);
      expect(both(18_000, "charge")).toEqual(["1.80\u00a0₽", "1,80\u00a0₽"]);
      expect(both(23_593, "charge")).toEqual(["2.3593\u00a0₽", "2,3593\u00a0₽"]);
      expect(both(10_000_000_000, "charge")).toEqual(["1,000,000.00\u00a0₽", "1\u00a0000\u00a0000,00\u00a0₽"]);
      expect(both(0, "charge")).toEqual(["0.00\u00a0₽", "0,00\u00a0₽"]);
      expect(both(-12_345, "charge")).toEqual(["-1.2345\u00a0₽", "-1,2345\u00a0₽"]);
    });

    test("a unit price finer than the ledger stays exact; a whole ruble amount gets its kopecks", () => {
      expect([formatRubles("0.00035", "unitPrice", "en"), formatRubles("0.00035", "unitPrice", "ru")]).toEqual([
        "0.00035\u00a0₽",
        "0,00035\u00a0₽",
      ]);
      expect([formatRubles(2.25, "unitPrice", "en"), formatRubles("3.600", "unitPrice", "ru")]).toEqual(["2.25\u00a0₽", "3,60\u00a0₽"]);
      expect([formatRubles(100, "balance", "en"), formatRubles(1500, "balance", "ru")]).toEqual(["100.00\u00a0₽", "1\u00a0500,00\u00a0₽"]);
      expect(formatRubles({ units: 123_456n, scale: 5 }, "balance", "en")).toBe("1.23\u00a0₽");
    });

    test("bigint credits past 2^53 are printed exactly", () => {
      expect(formatMoney(123_456_789_012_345_678n, "balance", "en")).toBe("12,345,678,901,234.56\u00a0₽");
      expect(formatMoney(123_456_789_012_345_678n, "charge", "ru")).toBe("12\u00a0345\u00a0678\u00a0901\u00a0234,5678\u00a0₽");
    });
  });

  describe("validation", () => {
    test("a fractional or unsafe number of credits is refused, never rounded into money", () => {
      expect(() => formatMoney(1.5, "charge", "en")).toThrow(RangeError);
      expect(() => formatMoney(2 ** 60, "balance", "en")).toThrow(RangeError);
    });
  });
});

describe("messages", () => {
  describe("success", () => {
    test("Russian has every English key and no other", () => {
      expect(paths(ru).sort()).toEqual(paths(en).sort());
    });

    test("no message shows the ledger's unit: money is rubles to people, in both languages", () => {
      const texts = (tree: object): string[] =>
        Object.values(tree).flatMap((v) => (typeof v === "object" && v !== null ? texts(v) : [String(v)]));
      expect(texts(en).filter((m) => /credit/i.test(m))).toEqual([]);
      expect(texts(ru).filter((m) => /кредит/i.test(m))).toEqual([]);
    });
  });
});
