import Link from "next/link";
import { Badge, cellClass, formatTime, Table } from "@/components/dashboard/ui";
import type { TransactionType } from "@/db/schema";
import { formatCredits } from "@/lib/money/credits";
import type { TransactionView } from "@/lib/transactions/list-transactions";

export const transactionTypeLabels: Record<TransactionType, string> = {
  topup: "Top-up",
  grant: "Grant",
  clawback: "Clawback",
  generation_reserve: "Generation",
  generation_settle_refund: "Settle refund",
  generation_settle_charge: "Settle charge",
  generation_refund: "Refund",
};

/** Ledger rows; with `showUser`, each row links to its user's admin page. */
export function TransactionsTable({ items, showUser = false }: { items: TransactionView[]; showUser?: boolean }) {
  if (items.length === 0) return <p className="py-6 text-center text-sm text-slate-500">No transactions.</p>;
  const head = [...(showUser ? ["User"] : []), "Time", "Type", "Amount", "Balance after", "Description"];
  return (
    <Table head={head}>
      {items.map((t) => (
        <tr key={t.id} data-testid="transaction-row">
          {showUser && (
            <td className={cellClass}>
              <Link href={`/dashboard/admin/users/${encodeURIComponent(t.userId)}`} className="text-brand-700 hover:underline">
                {t.userId.slice(0, 8)}…
              </Link>
            </td>
          )}
          <td className={`${cellClass} whitespace-nowrap`}>{formatTime(t.createdAt)}</td>
          <td className={cellClass}>
            <Badge tone={t.amount > 0 ? "green" : t.amount < 0 ? "amber" : "slate"}>{transactionTypeLabels[t.type]}</Badge>
          </td>
          <td className={`${cellClass} whitespace-nowrap tabular-nums ${t.amount < 0 ? "text-red-700" : "text-emerald-700"}`}>
            {t.amount > 0 ? "+" : ""}
            {formatCredits(t.amount)}
          </td>
          <td className={`${cellClass} whitespace-nowrap tabular-nums`}>{formatCredits(t.balanceAfter)}</td>
          <td className={cellClass}>{t.description ?? "—"}</td>
        </tr>
      ))}
    </Table>
  );
}
