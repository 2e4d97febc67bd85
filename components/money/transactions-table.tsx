import { useLocale, useTranslations } from "next-intl";
import { Email } from "@/components/dashboard/email";
import Link from "next/link";
import { Badge, Table, Td } from "@/components/dashboard/ui";
import { formatFor } from "@/lib/i18n/format";
import type { TransactionView } from "@/lib/billing/ledger/list-transactions";
import { Money } from "./money";

/** Money moved in from outside or by an admin shows to the kopeck; a generation's move shows every digit it has. */
const MONEY_MOVES = new Set<string>(["topup", "grant", "clawback"]);

/** Ledger rows; with `showUser`, each row names its user (the e-mail) and links to the user's admin page. */
/** Descriptions the service writes in English (lib/billing), by their message. */
const SERVICE_WORDS: Record<string, "descRefunded" | "descLessThanReserved" | "descAutoTopup" | "descTopup"> = {
  "Generation refunded": "descRefunded",
  "Generation cost less than reserved": "descLessThanReserved",
  "Auto top-up": "descAutoTopup",
  "Top-up": "descTopup",
};

export function TransactionsTable({
  items,
  showUser = false,
}: {
  items: (TransactionView & { email?: string | null })[];
  showUser?: boolean;
}) {
  const t = useTranslations("tx");
  const ts = useTranslations("status");
  const f = formatFor(useLocale());
  if (items.length === 0) return <p className="py-6 text-center text-sm text-slate-600">{t("none")}</p>;
  /**
   * What the service wrote is said in the page's language (a refund's "<model>: failed", a
   * top-up's "Balance top-up, 500 ₽"); what a person typed (a grant's reason) is shown as typed.
   */
  const describe = (row: { type: string; description: string | null }) => {
    const d = row.description;
    if (!d) return "—";
    const refund = row.type === "generation_refund" ? /^(.+): (failed|cancelled)$/.exec(d) : null;
    if (refund) return t("refundOf", { model: refund[1]!, outcome: ts(refund[2] as "failed") });
    const topup = row.type === "topup" ? /^Balance top-up, ([\d.]+) ₽$/.exec(d) : null;
    if (topup) return t("topupOf", { amount: f.rubles(topup[1]!, "balance") });
    const fixed = SERVICE_WORDS[d];
    if (fixed) return t(fixed);
    return row.type === "grant" || row.type === "clawback" ? <span translate="no">{d}</span> : d;
  };
  const head = [...(showUser ? [t("user")] : []), t("time"), t("type"), t("amount"), t("balanceAfter"), t("description")];
  return (
    <Table stack head={head}>
      {items.map((row) => (
        <tr key={row.id} data-testid="transaction-row">
          {showUser && (
            <Td label={t("user")}>
              <Link
                prefetch={false}
                href={`/dashboard/admin/users/${encodeURIComponent(row.userId)}`}
                className="text-brand-700 hover:underline"
                data-testid="transaction-user"
              >
                {row.email ? <Email address={row.email} /> : `${row.userId.slice(0, 8)}…`}
              </Link>
            </Td>
          )}
          <Td label={t("time")} className="whitespace-nowrap">
            {f.dateTime(row.createdAt)}
          </Td>
          <Td label={t("type")}>
            <Badge tone={row.amount > 0 ? "green" : row.amount < 0 ? "amber" : "slate"}>{t(row.type)}</Badge>
          </Td>
          <Td label={t("amount")} className={`whitespace-nowrap tabular-nums ${row.amount < 0 ? "text-red-700" : "text-emerald-700"}`}>
            {row.amount > 0 ? "+" : ""}
            <Money credits={row.amount} kind={MONEY_MOVES.has(row.type) ? "balance" : "charge"} />
          </Td>
          <Td label={t("balanceAfter")} className="whitespace-nowrap tabular-nums">
            <Money credits={row.balanceAfter} kind="balance" />
          </Td>
          <Td label={t("description")}>{describe(row)}</Td>
        </tr>
      ))}
    </Table>
  );
}
