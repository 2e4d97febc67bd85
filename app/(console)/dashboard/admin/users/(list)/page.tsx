import { getTranslations } from "next-intl/server";
import { Email } from "@/components/dashboard/email";
import Link from "next/link";
import { Badge, Field, Input, Select, Table, Td } from "@/components/dashboard/ui";
import { listState, pageHref, Pager, type SearchParams } from "@/components/dashboard/pager";
import { Card, PageHeader } from "@/components/ui/card";
import { listUsers } from "@/lib/admin/users/list-users";
import { getFormat } from "@/lib/i18n/server";
import { listUsersQuery } from "@/lib/admin/users/inputs";
import { requireAdmin } from "@/lib/auth/viewer";

export async function generateMetadata() {
  return { title: (await getTranslations("admin"))("users") };
}

const PAGE_SIZE = 50;

/** The URL holds the state (search, filters, page), so views can be shared and reloaded. */
function parse(search: SearchParams) {
  const { one, page } = listState(search);
  const parsed = listUsersQuery.safeParse({
    q: one("q"),
    role: one("role"),
    banned: one("banned"),
    limit: PAGE_SIZE,
    offset: (page - 1) * PAGE_SIZE,
  });
  return { page, query: parsed.success ? parsed.data : listUsersQuery.parse({ limit: PAGE_SIZE }) };
}

export default async function AdminUsersPage({ searchParams }: { searchParams: Promise<SearchParams> }) {
  const { db } = await requireAdmin();
  const { page, query } = parse(await searchParams);
  const [result, t, f] = await Promise.all([listUsers(db, query), getTranslations("admin"), getFormat()]);
  const filters = { q: query.q, role: query.role, banned: query.banned };
  const pages = Math.max(1, Math.ceil(result.total / PAGE_SIZE));
  return (
    <>
      <PageHeader title={t("users")} description={t("matching", { count: result.total })} />
      <Card>
        <form method="get" className="mb-4 grid gap-3 sm:grid-cols-[1fr_10rem_10rem_auto] sm:items-end">
          <Field label={t("search")}>
            <Input name="q" defaultValue={query.q ?? ""} placeholder={t("searchPlaceholder")} maxLength={64} />
          </Field>
          <Field label={t("role")}>
            <Select name="role" defaultValue={query.role ?? ""}>
              <option value="">{t("any")}</option>
              <option value="user">{t("roleUser")}</option>
              <option value="admin">{t("roleAdmin")}</option>
            </Select>
          </Field>
          <Field label={t("ban")}>
            <Select name="banned" defaultValue={query.banned ?? ""}>
              <option value="">{t("any")}</option>
              <option value="true">{t("banned")}</option>
              <option value="false">{t("notBanned")}</option>
            </Select>
          </Field>
          <button type="submit" className="rounded-md bg-brand-600 px-4 py-2 text-sm font-medium text-white hover:bg-brand-700">
            {t("filter")}
          </button>
        </form>
        <Table stack head={[t("colUser"), t("colRole"), t("colStatus"), t("colBalance"), t("colJoined")]}>
          {result.items.map((u) => (
            <tr key={u.id} data-testid="admin-user-row">
              <Td label={t("colUser")}>
                <Link
                  prefetch={false}
                  href={`/dashboard/admin/users/${encodeURIComponent(u.id)}`}
                  className="font-medium text-brand-700 hover:underline"
                >
                  {u.email ? <Email address={u.email} /> : u.id}
                </Link>
                {u.name && (
                  <div className="text-xs text-slate-600" translate="no">
                    {u.name}
                  </div>
                )}
              </Td>
              <Td label={t("colRole")}>{u.role === "admin" ? <Badge tone="brand">{t("roleAdmin")}</Badge> : t("roleUser")}</Td>
              <Td label={t("colStatus")}>
                {u.banned ? <Badge tone="red">{t("banned")}</Badge> : <Badge tone="green">{t("active")}</Badge>}
              </Td>
              <Td label={t("colBalance")} className="tabular-nums">
                {f.money(u.balance, "balance")}
              </Td>
              <Td label={t("colJoined")}>{f.dateTime(u.createdAt)}</Td>
            </tr>
          ))}
        </Table>
        {result.items.length === 0 && <p className="py-6 text-center text-sm text-slate-600">{t("noUsers")}</p>}
        <Pager page={page} pages={pages} hrefFor={(p) => pageHref("/dashboard/admin/users", filters, p)} />
      </Card>
    </>
  );
}
