/**
 * A model's description in the page's language: the Russian overlay's on a Russian page, else the
 * English one, marked `lang="en"` there so a reader (and a screen reader) knows it is English.
 */
export function localDescription(model: { description: string; descriptionRu: string | null }, locale: string) {
  if (locale === "ru" && model.descriptionRu) return { text: model.descriptionRu, lang: undefined };
  return { text: model.description, lang: locale === "en" ? undefined : "en" };
}
