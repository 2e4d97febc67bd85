import type { ListModelsQuery } from "@/lib/catalog/list-query";

/** `/catalog/fal-ai/flux/dev`: slashes stay path separators, each segment is encoded once. */
export const modelHref = (modelId: string, query = "") => `/catalog/${modelId.split("/").map(encodeURIComponent).join("/")}${query}`;

/** The catalog page's state: exactly the API's query. */
export type CatalogState = ListModelsQuery;

/** The catalog URL for a state: the URL holds every filter, so a search can be shared. */
export function catalogHref(state: CatalogState, patch: Partial<CatalogState> = {}): string {
  const s = { ...state, offset: 0, ...patch };
  const p = new URLSearchParams();
  if (s.search) p.set("search", s.search);
  if (s.category.length) p.set("category", s.category.join(","));
  if (s.lab.length) p.set("lab", s.lab.join(","));
  if (s.tag.length) p.set("tag", s.tag.join(","));
  if (s.sort !== "popular") p.set("sort", s.sort);
  if (s.includeCommunity) p.set("includeCommunity", "true");
  if (s.limit !== 24) p.set("limit", String(s.limit));
  if (s.offset) p.set("offset", String(s.offset));
  const q = p.toString();
  return q ? `/catalog?${q}` : "/catalog";
}

export const toggle = (list: string[], value: string) => (list.includes(value) ? list.filter((v) => v !== value) : [...list, value]);
