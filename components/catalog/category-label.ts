import type { useTranslations } from "next-intl";
import { categoryLabel, CATEGORY_LABELS } from "@/lib/catalog/categories";

type CatalogT = ReturnType<typeof useTranslations<"catalog">>;

/** A category's name in the page's language (messages catalog.cat_…); an unlisted one falls back to its English label. */
export function localCategory(t: CatalogT, category: string): string {
  return category in CATEGORY_LABELS ? t(`cat_${category}` as Parameters<CatalogT>[0]) : categoryLabel(category);
}

/**
 * A tag's words in the page's language (messages catalog.tagNames), or null for a tag the messages
 * do not know (a synced catalog brings its own): the page then shows the slug, marked translate="no".
 */
export function localTag(t: CatalogT, tag: string): string | null {
  const key = `tagNames.${tag}` as Parameters<CatalogT>[0];
  return t.has(key) ? t(key) : null;
}
