"use server";

import { cookies } from "next/headers";
import { isLocale, LOCALE_COOKIE } from "../core/locales";

/** The language switcher: remembers the visitor's choice for a year (the page then re-renders in it). */
export async function setLocaleAction(locale: string): Promise<void> {
  if (!isLocale(locale)) return;
  (await cookies()).set(LOCALE_COOKIE, locale, { path: "/", maxAge: 365 * 24 * 3600, sameSite: "lax", httpOnly: false });
}
