import { getTranslations } from "next-intl/server";
import { Field, Input, Select } from "@/components/dashboard/ui";
import { TransactionsTable } from "@/components/money/transactions-table";
import { listState, pageHref, Pager, type SearchParams } from "@/components/dashboard/pager";
import { Card, PageHeader } from "@/components/ui/card";
import { transactionTypes } from "@/lib/billing/vocabulary";
import { adminTransactionsQuery } from "@/lib/http/contracts/admin-money";
import { requireAdmin } from "@/lib/auth/viewer";
import { listAdminTransactions } from "@/lib/billing/ledger/list-admin-transactions";

export async function generateMetadata() {
  return { title: (await getTranslations("admin"))("txTitle") };
}

const PAGE_SIZE = 50;

/**
 * The URL holds the filters and the page, so a view can be shared. `user` is an e-mail (or part of
 * one) or a user id; a user's page links here with `userId`.
 */
function parse(search: SearchParams) {
  const { one, page } = listState(search);
  const user = (one("user") ?? one("userId"))?.slice(0, 254);
  const parsed = adminTransactionsQuery.safeParse({ type: one("type"), limit: PAGE_SIZE, offset: (page - 1) * PAGE_SIZE });
  const query = parsed.success ? parsed.data : adminTransactionsQuery.parse({ limit: PAGE_SIZE });
  return { page, query: { user, type: query.type, limit: query.limit, offset: query.offset } };
}

export default async function AdminTransactionsPage({ searchParams }: { searchParams: Promise<SearchParams> }) {
  const { db } = await requireAdmin();
  const { page, query } = parse(await searchParams);
  const [result, t, tx] = await Promise.all([listAdminTransactions(db, query), getTranslations("admin"), getTranslations("tx")]);
  const filters = { user: query.user, type: query.type };
  const pages = Math.max(1, Math.ceil(result.total / PAGE_SIZE));
  return (
    <>
      <PageHeader title={t("txTitle")} description={t("txDescription", { count: result.total })} />
      <Card>
        <form method="get" className="mb-4 grid gap-3 sm:grid-cols-[1fr_12rem_auto] sm:items-end">
          <Field label={t("userFilter")}>
            <Input name="user" defaultValue={query.user ?? ""} maxLength={254} placeholder={t("anyUser")} />
          </Field>
          <Field label={t("type")}>
            <Select name="type" defaultValue={query.type ?? ""}>
              <option value="">{t("any")}</option>
              {transactionTypes.map((type) => (
                <option key={type} value={type}>
                  {tx(type)}
                </option>
              ))}
            </Select>
          </Field>
          <button type="submit" className="rounded-md bg-brand-600 px-4 py-2 text-sm font-medium text-white hover:bg-brand-700">
            {t("filter")}
          </button>
        </form>
        <TransactionsTable items={result.items} showUser />
        <Pager page={page} pages={pages} hrefFor={(p) => pageHref("/dashboard/admin/transactions", filters, p)} />
      </Card>
    </>
  );
}
