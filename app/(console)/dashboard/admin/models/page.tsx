import { getTranslations } from "next-intl/server";
import { localCategory } from "@/components/catalog/category-label";
import type { Metadata } from "next";
import { Pager } from "@/components/dashboard/pager";
import { AdminModelsTable, SyncCatalogButton } from "@/components/catalog/admin/models-table";
import { PageHeader } from "@/components/ui/card";
import { adminModelsQuery } from "@/lib/http/contracts/admin-models";
import { requireAdmin } from "@/lib/auth/viewer";
import { listAdminModels } from "@/lib/catalog/admin-list";
import { CATEGORY_ORDER } from "@/lib/catalog/categories";
import { providerConfigured } from "@/lib/generation";

export async function generateMetadata(): Promise<Metadata> {
  return { title: (await getTranslations("adminModels"))("title") };
}

type SearchParams = Promise<Record<string, string | string[] | undefined>>;

/** Rows per page: a page an admin can scan (the whole catalog on one page was 8,578 px tall). */
const PAGE_SIZE = 25;

// Admin Models: every model (hidden included), hide/show, price and discount, schema sync.
export default async function AdminModelsPage({ searchParams }: { searchParams: SearchParams }) {
  const { db } = await requireAdmin();
  const raw = Object.fromEntries(Object.entries(await searchParams).map(([k, v]) => [k, Array.isArray(v) ? v.at(-1) : v]));
  const parsed = adminModelsQuery.safeParse({ limit: String(PAGE_SIZE), ...raw });
  const query = parsed.success ? parsed.data : adminModelsQuery.parse({ limit: String(PAGE_SIZE) });
  const [initial, t, tc] = await Promise.all([listAdminModels(db, query), getTranslations("adminModels"), getTranslations("catalog")]);
  const qs = new URLSearchParams({
    limit: String(query.limit),
    offset: String(query.offset),
    ...(query.category.length ? { category: query.category.join(",") } : {}),
    ...(query.visibleOnly ? { visibleOnly: "true" } : {}),
    ...(query.search ? { search: query.search } : {}),
  }).toString();
  // Whose credentials this deployment holds: a route to a provider without them is never tried.
  const configured = { fal: providerConfigured("fal"), replicate: providerConfigured("replicate"), local: providerConfigured("local") };
  const page = (offset: number) => `?${new URLSearchParams({ ...Object.fromEntries(new URLSearchParams(qs)), offset: String(offset) })}`;
  return (
    <div>
      <PageHeader title={t("title")} description={t("description")} actions={<SyncCatalogButton />} />
      <form method="get" className="mb-4 flex flex-wrap items-center gap-3">
        <input
          name="search"
          defaultValue={query.search ?? ""}
          placeholder={t("searchPlaceholder")}
          aria-label={t("search")}
          className="rounded-md border border-slate-300 px-3 py-1.5 text-sm"
        />
        <select
          name="category"
          defaultValue={query.category[0] ?? ""}
          aria-label={t("category")}
          className="rounded-md border border-slate-300 px-3 py-1.5 text-sm"
        >
          <option value="">{t("allCategories")}</option>
          {CATEGORY_ORDER.map((c) => (
            <option key={c} value={c}>
              {localCategory(tc, c)}
            </option>
          ))}
        </select>
        <label className="flex items-center gap-2 text-sm">
          <input type="checkbox" name="visibleOnly" value="true" defaultChecked={query.visibleOnly} /> {t("visibleOnly")}
        </label>
        <button type="submit" className="rounded-md border border-slate-300 bg-white px-3 py-1.5 text-sm">
          {t("filter")}
        </button>
      </form>
      <AdminModelsTable key={qs} query={qs} initial={initial} configured={configured} />
      {initial.total > query.limit && (
        <Pager
          page={Math.floor(query.offset / query.limit) + 1}
          pages={Math.ceil(initial.total / query.limit)}
          hrefFor={(n) => page((n - 1) * query.limit)}
        />
      )}
    </div>
  );
}
