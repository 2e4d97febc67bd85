import { useTranslations } from "next-intl";
import { ButtonLink } from "@/components/ui/button";

export type SearchParams = Record<string, string | string[] | undefined>;

/** A dashboard list's state from its URL: one value per filter (blank = absent) and the page (≥ 1). */
export function listState(search: SearchParams) {
  const one = (k: string) => (typeof search[k] === "string" && search[k] !== "" ? (search[k] as string) : undefined);
  return { one, page: Math.max(1, Number.parseInt(one("page") ?? "1", 10) || 1) };
}

/** The URL of a list page with its filters, so a view can be shared and reloaded. */
export function pageHref(path: string, filters: Record<string, string | undefined>, page: number): string {
  const params = new URLSearchParams();
  for (const [k, v] of Object.entries(filters)) if (v) params.set(k, v);
  if (page > 1) params.set("page", String(page));
  const qs = params.toString();
  return `${path}${qs ? `?${qs}` : ""}`;
}

/** "Page N of M" with Previous / Next links for a dashboard list; `hrefFor` builds a page's URL. */
export function Pager({ page, pages, hrefFor }: { page: number; pages: number; hrefFor: (page: number) => string }) {
  const t = useTranslations("pager");
  return (
    <div className="mt-4 flex items-center justify-between text-sm text-slate-600">
      <span>{t("page", { page, pages })}</span>
      <div className="flex gap-2">
        {page > 1 && (
          <ButtonLink variant="secondary" href={hrefFor(page - 1)}>
            {t("previous")}
          </ButtonLink>
        )}
        {page < pages && (
          <ButtonLink variant="secondary" href={hrefFor(page + 1)}>
            {t("next")}
          </ButtonLink>
        )}
      </div>
    </div>
  );
}
