"use client";

import { useLocale } from "next-intl";
import { useMemo } from "react";
import { formatFor } from "./format";

/** The page's formatter in a Client Component (the locale comes from NextIntlClientProvider). */
export function useFormat() {
  const locale = useLocale();
  return useMemo(() => formatFor(locale), [locale]);
}
