/**
 * The languages the pages speak. One locale per request, picked once (lib/i18n/request.ts): the
 * visitor's choice (the locale cookie, set by the language switcher), else the best match in
 * Accept-Language, else English. Every text comes from messages/<locale>.json and every number,
 * amount of money and date from `formatFor(locale)` (lib/i18n/format.ts).
 */
export const locales = ["en", "ru"] as const;
export type Locale = (typeof locales)[number];
export const defaultLocale: Locale = "en";

/** The visitor's explicit choice; a year long, readable by the server on every request. */
export const LOCALE_COOKIE = "gw_locale";

export const isLocale = (v: unknown): v is Locale => typeof v === "string" && (locales as readonly string[]).includes(v);

/**
 * The first supported language in an Accept-Language header, by quality (`ru-RU;q=0.9, en;q=0.8`
 * → ru); ties keep the header's order. Undefined when none is supported.
 */
export function fromAcceptLanguage(header: string | null | undefined): Locale | undefined {
  if (!header) return undefined;
  const ranked = header
    .split(",")
    .map((part, i) => {
      const [tag = "", ...params] = part.trim().split(";");
      const q = params.map((p) => p.trim()).find((p) => p.startsWith("q="));
      const quality = q ? Number(q.slice(2)) : 1;
      return { lang: tag.trim().toLowerCase().split("-")[0]!, quality: Number.isFinite(quality) ? quality : 0, i };
    })
    .filter((r) => r.quality > 0)
    .sort((a, b) => b.quality - a.quality || a.i - b.i);
  return ranked.map((r) => r.lang).find(isLocale);
}

/** The request's locale: the cookie's choice, else Accept-Language, else English. */
export function pickLocale({ cookie, acceptLanguage }: { cookie?: string | null; acceptLanguage?: string | null }): Locale {
  if (isLocale(cookie)) return cookie;
  return fromAcceptLanguage(acceptLanguage) ?? defaultLocale;
}
