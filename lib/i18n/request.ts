import { cookies, headers } from "next/headers";
import { getRequestConfig } from "next-intl/server";
import { LOCALE_COOKIE, pickLocale } from "../core/locales";
import { messagesFor } from "./messages";

// next-intl's per-request configuration (wired in next.config.ts): the locale, picked once per
// request, and its messages. Pages format through lib/i18n/format.ts, not next-intl's formatter.
export default getRequestConfig(async () => {
  const [store, head] = await Promise.all([cookies(), headers()]);
  const locale = pickLocale({ cookie: store.get(LOCALE_COOKIE)?.value, acceptLanguage: head.get("accept-language") });
  return { locale, messages: messagesFor(locale), timeZone: "UTC" };
});
