import { getTranslations } from "next-intl/server";
import Link from "next/link";
import { notFound } from "next/navigation";
import { Badge, cellClass, Table } from "@/components/dashboard/ui";
import { TransactionsTable } from "@/components/money/transactions-table";
import { Card, PageHeader } from "@/components/ui/card";
import { getUserDetail } from "@/lib/admin/users/get-user";
import { requireAdmin } from "@/lib/auth/viewer";
import { isDomainError } from "@/lib/core/errors";
import { listUserKeysWithTuning } from "@/lib/admin/users/user-keys";
import { sessionsOf } from "@/lib/account/sessions";
import { getFormat } from "@/lib/i18n/server";
import { listTransactions } from "@/lib/billing/ledger/list-transactions";
import { Money } from "@/components/money/money";
import { CreditsCard } from "./credits-card";
import { windowLabel } from "@/components/usage/window-label";
import { Email } from "@/components/dashboard/email";
import { UserAdmin } from "./user-admin";

export async function generateMetadata() {
  return { title: (await getTranslations("adminUser"))("title") };
}

export default async function AdminUserPage({ params }: { params: Promise<{ id: string }> }) {
  const { db, principal } = await requireAdmin();
  const { id } = await params;
  const userId = decodeURIComponent(id);
  const detail = await getUserDetail(db, userId).catch((err) => {
    if (isDomainError(err) && err.code === "not_found") notFound();
    throw err;
  });
  const [sessions, keys, ledger] = await Promise.all([
    sessionsOf(db, userId),
    listUserKeysWithTuning(db, userId),
    listTransactions(db, { userId, limit: 10, offset: 0 }),
  ]);
  const { user } = detail;
  const [t, tc, f] = await Promise.all([getTranslations("adminUser"), getTranslations("chart"), getFormat()]);
  return (
    <>
      <PageHeader
        title={user.email ? <Email address={user.email} /> : user.id}
        description={
          <>
            <Link href="/dashboard/admin/users" className="text-brand-700 underline">
              {t("users")}
            </Link>{" "}
            / {user.name ? <span translate="no">{user.name}</span> : t("noName")} · {t("joined", { when: f.dateTime(user.createdAt) })}
          </>
        }
        actions={
          <div className="flex gap-2">
            {user.role === "admin" && <Badge tone="brand">{t("admin")}</Badge>}
            {user.banned ? <Badge tone="red">{t("banned")}</Badge> : <Badge tone="green">{t("active")}</Badge>}
          </div>
        }
      />
      <div className="mb-6 grid gap-6 md:grid-cols-2">
        <Card title={t("balance")}>
          <p className="text-2xl font-semibold tabular-nums text-slate-900">
            <Money credits={detail.balance} kind="balance" testId="admin-user-balance" />
          </p>
          {f.exactMoney(detail.balance) && (
            <p className="text-xs text-slate-600">{t("exactly", { amount: f.exactMoney(detail.balance)! })}</p>
          )}
        </Card>
        <Card title={t("usage")}>
          <Table head={[t("window"), t("operations"), t("charged")]}>
            {detail.usage.map((w) => (
              <tr key={w.window}>
                <td className={cellClass}>{windowLabel(tc, w.window, true)}</td>
                <td className={`${cellClass} tabular-nums`}>{f.number(w.count)}</td>
                <td className={`${cellClass} tabular-nums`}>{f.money(w.credits, "charge")}</td>
              </tr>
            ))}
          </Table>
        </Card>
      </div>
      <div className="mb-6 grid gap-6 lg:grid-cols-[20rem_minmax(0,1fr)]">
        <CreditsCard user={{ id: user.id, email: user.email }} />
        <Card
          className="min-w-0"
          title={t("transactions", { count: f.number(ledger.total) })}
          actions={
            <Link
              href={`/dashboard/admin/transactions?userId=${encodeURIComponent(user.id)}`}
              className="text-sm text-brand-600 hover:underline"
            >
              {t("all")}
            </Link>
          }
        >
          <TransactionsTable items={ledger.items} />
        </Card>
      </div>
      <UserAdmin user={user} sessions={sessions} keys={keys} isSelf={principal.userId === user.id} />
    </>
  );
}
