"use client";

import { useTranslations } from "next-intl";
import { usePathname } from "next/navigation";

/**
 * The public pages' first focusable element, shown when focused: on the catalog it skips the
 * header, search and filters to the models (`#models`), elsewhere the header to the content.
 */
export function SkipLink() {
  const t = useTranslations();
  const catalog = usePathname() === "/catalog";
  return (
    <a
      href={catalog ? "#models" : "#content"}
      className="sr-only z-50 rounded-md bg-white px-4 py-2 text-sm font-medium text-brand-700 shadow focus:not-sr-only focus:fixed focus:left-4 focus:top-3 focus:ring-2 focus:ring-brand-500"
    >
      {catalog ? t("catalog.skipToModels") : t("site.skipToContent")}
    </a>
  );
}
