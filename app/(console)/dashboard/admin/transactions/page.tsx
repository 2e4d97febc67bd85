import { getTranslations } from "next-intl/server";
import { Field, Input, Select } from "@/components/dashboard/ui";
import { TransactionsTable } from "@/components/money/transactions-table";
import { listState, pageHref, Pager, type SearchParams } from "@/components/dashboard/pager";
import { Card, PageHeader } from "@/components/ui/card";
import { transactionTypes } from "@/db/schema";
import { adminTransactionsQuery } from "@/lib/api/contracts/admin-money";
import { requireAdmin } from "@/lib/auth/viewer";
import { listTransactions } from "@/lib/transactions/list-transactions";

export async function generateMetadata() {
  return { title: (await getTranslations("admin"))("txTitle") };
}

const PAGE_SIZE = 50;

/** The URL holds the filters and the page, so a view can be shared (e.g. from a user's page). */
function parse(search: SearchParams) {
  const { one, page } = listState(search);
  const parsed = adminTransactionsQuery.safeParse({ userId: one("userId"), type: one("type"), limit: PAGE_SIZE, offset: (page - 1) * PAGE_SIZE });
  return { page, query: parsed.success ? parsed.data : adminTransactionsQuery.parse({ limit: PAGE_SIZE }) };
}

export default async function AdminTransactionsPage({ searchParams }: { searchParams: Promise<SearchParams> }) {
  const { db } = await requireAdmin();
  const { page, query } = parse(await searchParams);
  const [result, t, tx] = await Promise.all([listTransactions(db, query), getTranslations("admin"), getTranslations("tx")]);
  const filters = { userId: query.userId, type: query.type };
  const pages = Math.max(1, Math.ceil(result.total / PAGE_SIZE));
  return (
    <>
      <PageHeader title={t("txTitle")} description={t("txDescription", { count: result.total })} />
      <Card>
        <form method="get" className="mb-4 grid gap-3 sm:grid-cols-[1fr_12rem_auto] sm:items-end">
          <Field label={t("userId")}>
            <Input name="userId" defaultValue={query.userId ?? ""} maxLength={64} placeholder={t("anyUser")} />
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
