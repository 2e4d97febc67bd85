import Link from "next/link";
import { notFound } from "next/navigation";
import { Badge, cellClass, formatTime, Table } from "@/components/dashboard/ui";
import { TransactionsTable } from "@/components/money/transactions-table";
import { Card, PageHeader } from "@/components/ui/card";
import { getUserDetail } from "@/lib/admin/users/get-user";
import { requireAdmin } from "@/lib/auth/viewer";
import { isApiError } from "@/lib/http/errors";
import { listUserKeysWithTuning } from "@/lib/admin/users/user-keys";
import { listSessions } from "@/lib/me/sessions";
import { formatCredits } from "@/lib/money/credits";
import { listTransactions } from "@/lib/transactions/list-transactions";
import { CreditsCard } from "./credits-card";
import { UserAdmin } from "./user-admin";

export const metadata = { title: "User" };

export default async function AdminUserPage({ params }: { params: Promise<{ id: string }> }) {
  const { db, principal } = await requireAdmin();
  const { id } = await params;
  const userId = decodeURIComponent(id);
  const detail = await getUserDetail(db, userId).catch((err) => {
    if (isApiError(err) && err.code === "not_found") notFound();
    throw err;
  });
  const [sessions, keys, ledger] = await Promise.all([
    listSessions(db, userId),
    listUserKeysWithTuning(db, userId),
    listTransactions(db, { userId, limit: 10, offset: 0 }),
  ]);
  const { user } = detail;
  return (
    <>
      <PageHeader
        title={user.email ?? user.id}
        description={
          <>
            <Link href="/dashboard/admin/users" className="text-brand-600 hover:underline">
              Users
            </Link>{" "}
            / {user.name ?? "no name"} · joined {formatTime(user.createdAt)}
          </>
        }
        actions={
          <div className="flex gap-2">
            {user.role === "admin" && <Badge tone="brand">admin</Badge>}
            {user.banned ? <Badge tone="red">Banned</Badge> : <Badge tone="green">Active</Badge>}
          </div>
        }
      />
      <div className="mb-6 grid gap-6 md:grid-cols-2">
        <Card title="Balance">
          <p className="text-2xl font-semibold tabular-nums text-slate-900" data-testid="admin-user-balance">
            {formatCredits(detail.balance)}
          </p>
          <p className="text-xs text-slate-500">{detail.balance.toLocaleString("en-US")} credits</p>
        </Card>
        <Card title="Usage">
          <Table head={["Window", "Operations", "Charged"]}>
            {detail.usage.map((w) => (
              <tr key={w.window}>
                <td className={cellClass}>{w.window}</td>
                <td className={`${cellClass} tabular-nums`}>{w.count.toLocaleString("en-US")}</td>
                <td className={`${cellClass} tabular-nums`}>{formatCredits(w.credits)}</td>
              </tr>
            ))}
          </Table>
        </Card>
      </div>
      <div className="mb-6 grid gap-6 md:grid-cols-[20rem_1fr]">
        <CreditsCard userId={user.id} />
        <Card
          title={`Transactions (${ledger.total.toLocaleString("en-US")})`}
          actions={
            <Link href={`/dashboard/admin/transactions?userId=${encodeURIComponent(user.id)}`} className="text-sm text-brand-600 hover:underline">
              All
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
