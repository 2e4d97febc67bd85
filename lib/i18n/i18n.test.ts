import { describe, expect, test } from "vitest";
import en from "@/messages/en.json";
import ru from "@/messages/ru.json";
import { fromAcceptLanguage, pickLocale } from "../core/locales";
import { formatFor } from "./format";

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
      expect([e.credits(5_000_000), r.credits(5_000_000)]).toEqual(["500.00 ₽", "500,00 ₽"]);
      expect([e.credits(11), r.credits(11)]).toEqual(["0.0011 ₽", "0,0011 ₽"]);
      expect([e.rub("0.00035"), r.rub(0.27)]).toEqual(["0.00035 ₽", "0,27 ₽"]);
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

describe("messages", () => {
  describe("success", () => {
    test("Russian has every English key and no other", () => {
      expect(paths(ru).sort()).toEqual(paths(en).sort());
    });
  });
});
