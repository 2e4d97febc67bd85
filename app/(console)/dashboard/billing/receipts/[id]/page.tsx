import { getTranslations } from "next-intl/server";
import { notFound } from "next/navigation";
import { receiptPayment } from "@/lib/billing/payments/get-payment";
import { requireViewer } from "@/lib/auth/viewer";
import { getFormat } from "@/lib/i18n/server";

export async function generateMetadata() {
  return { title: (await getTranslations("receipt"))("title") };
}

/**
 * The service's own printable receipt, where the provider offers none (YooKassa e-mails the
 * 54-FZ receipt itself). Only the payer's own succeeded payments have one.
 */
export default async function ReceiptPage({ params }: { params: Promise<{ id: string }> }) {
  const { id } = await params;
  const ctx = await requireViewer();
  const { principal } = ctx;
  const payment = await receiptPayment(ctx, id);
  if (!payment) notFound();
  const [t, f] = await Promise.all([getTranslations("receipt"), getFormat()]);
  const rows: [string, string][] = [
    [t("payment"), payment.id],
    [t("providerId"), payment.paymentProviderId ?? "—"],
    [t("paidBy"), principal.email ?? principal.userId],
    [t("date"), f.dateTime(payment.grantedAt ?? payment.createdAt)],
    [t("description"), payment.description ?? t("topup")],
    [t("amount"), f.money(payment.amountKopecks * 100, "balance")],
  ];
  return (
    <article className="max-w-xl rounded-lg border border-slate-200 bg-white p-8 print:border-0">
      <h1 className="text-xl font-semibold text-slate-900">{t("heading")}</h1>
      <dl className="mt-6 divide-y divide-slate-100 text-sm">
        {rows.map(([k, v]) => (
          <div key={k} className="flex justify-between gap-6 py-2">
            <dt className="text-slate-600">{k}</dt>
            <dd className="text-right font-medium text-slate-900">{v}</dd>
          </div>
        ))}
      </dl>
      <p className="mt-6 text-xs text-slate-600">{t("fiscal")}</p>
    </article>
  );
}
