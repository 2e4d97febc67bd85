import Link from "next/link";
import { Badge, formatTime, Table, Td } from "@/components/dashboard/ui";
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
    <Table stack head={head}>
      {items.map((t) => (
        <tr key={t.id} data-testid="transaction-row">
          {showUser && (
            <Td label="User">
              <Link href={`/dashboard/admin/users/${encodeURIComponent(t.userId)}`} className="text-brand-700 hover:underline">
                {t.userId.slice(0, 8)}…
              </Link>
            </Td>
          )}
          <Td label="Time" className="whitespace-nowrap">{formatTime(t.createdAt)}</Td>
          <Td label="Type">
            <Badge tone={t.amount > 0 ? "green" : t.amount < 0 ? "amber" : "slate"}>{transactionTypeLabels[t.type]}</Badge>
          </Td>
          <Td label="Amount" className={`whitespace-nowrap tabular-nums ${t.amount < 0 ? "text-red-700" : "text-emerald-700"}`}>
            {t.amount > 0 ? "+" : ""}
            {formatCredits(t.amount)}
          </Td>
          <Td label="Balance after" className="whitespace-nowrap tabular-nums">{formatCredits(t.balanceAfter)}</Td>
          <Td label="Description">{t.description ?? "—"}</Td>
        </tr>
      ))}
    </Table>
  );
}
