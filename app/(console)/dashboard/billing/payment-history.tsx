import { Badge, cellClass, formatTime, Table } from "@/components/dashboard/ui";
import { Card } from "@/components/ui/card";
import { formatCredits } from "@/lib/money/credits";
import type { PaymentView } from "@/lib/payments/payment-view";

const tone = { succeeded: "green", canceled: "red", pending: "amber", waiting_for_capture: "amber" } as const;

export function PaymentHistory({ payments, total }: { payments: PaymentView[]; total: number }) {
  return (
    <Card title={`Payment history (${total})`}>
      {payments.length === 0 ? (
        <p className="text-sm text-slate-600">No payments yet.</p>
      ) : (
        <Table head={["Date", "Amount", "Credits", "Type", "Status", "Receipt"]}>
          {payments.map((p) => (
            <tr key={p.id} data-testid="payment-row">
              <td className={cellClass}>{formatTime(p.createdAt)}</td>
              <td className={cellClass}>{formatCredits(p.amountKopecks * 100)}</td>
              <td className={`${cellClass} font-mono text-xs`}>{p.creditsToGrant.toLocaleString("en-US")}</td>
              <td className={cellClass}>{p.kind === "auto_topup" ? "Auto top-up" : "Top-up"}</td>
              <td className={cellClass}>
                <Badge tone={tone[p.status]}>{p.status}</Badge>
                {p.cancellationReason && <span className="ml-2 text-xs text-slate-500">{p.cancellationReason}</span>}
              </td>
              <td className={cellClass}>
                {p.status === "succeeded" ? (
                  <a href={`/billing/payments/${p.id}/receipt`} className="text-brand-700 hover:underline" target="_blank" rel="noreferrer">
                    Receipt
                  </a>
                ) : (
                  "—"
                )}
              </td>
            </tr>
          ))}
        </Table>
      )}
    </Card>
  );
}
