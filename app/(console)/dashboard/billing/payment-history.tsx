import { useLocale, useTranslations } from "next-intl";
import { Badge, Table, Td } from "@/components/dashboard/ui";
import { Card } from "@/components/ui/card";
import { formatFor } from "@/lib/i18n/format";
import type { PaymentView } from "@/lib/billing/payments/payment-view";

const tone = { succeeded: "green", canceled: "red", pending: "amber", waiting_for_capture: "amber" } as const;

export function PaymentHistory({ payments, total }: { payments: PaymentView[]; total: number }) {
  const t = useTranslations("billing");
  const f = formatFor(useLocale());
  return (
    <Card title={t("history", { count: total })}>
      {payments.length === 0 ? (
        <p className="text-sm text-slate-600">{t("noPayments")}</p>
      ) : (
        <Table stack head={[t("colDate"), t("colAmount"), t("colType"), t("colStatus"), t("colReceipt")]}>
          {payments.map((p) => (
            <tr key={p.id} data-testid="payment-row">
              <Td label={t("colDate")}>{f.dateTime(p.createdAt)}</Td>
              <Td label={t("colAmount")} className="whitespace-nowrap tabular-nums">
                {f.money(p.amountKopecks * 100, "balance")}
              </Td>
              <Td label={t("colType")}>{p.kind === "auto_topup" ? t("autoTopup") : t("topupKind")}</Td>
              <Td label={t("colStatus")}>
                <Badge tone={tone[p.status]}>{t(`st_${p.status}`)}</Badge>
                {p.cancellationReason && <span className="ml-2 text-xs text-slate-600">{p.cancellationReason}</span>}
              </Td>
              <Td label={t("colReceipt")}>
                {p.status === "succeeded" ? (
                  <a href={`/billing/payments/${p.id}/receipt`} className="text-brand-700 hover:underline" target="_blank" rel="noreferrer">
                    {t("receipt")}
                  </a>
                ) : (
                  "—"
                )}
              </Td>
            </tr>
          ))}
        </Table>
      )}
    </Card>
  );
}
