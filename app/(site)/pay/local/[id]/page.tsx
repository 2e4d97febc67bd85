import { getTranslations } from "next-intl/server";
import { notFound } from "next/navigation";
import { Badge } from "@/components/dashboard/ui";
import { Button } from "@/components/ui/button";
import { Card } from "@/components/ui/card";
import { viewerContext } from "@/lib/auth/viewer";
import { getFormat } from "@/lib/i18n/server";
import { getLocalPayment } from "@/simulators/local-payments/get-local-payment";

export async function generateMetadata() {
  return { title: (await getTranslations("payLocal"))("title") };
}
export const dynamic = "force-dynamic";

/**
 * The `local` payment provider's hosted confirmation page (PAYMENT_PROVIDER=local, the embedded
 * default): where YooKassa would show its card form, the payment's owner pays or declines (the
 * buttons post to ./pay and ./decline). Either way the provider notifies the app as YooKassa would
 * and sends the browser back to the shop. Anyone but the signed-in owner gets a 404.
 */
export default async function LocalPaymentPage({ params }: { params: Promise<{ id: string }> }) {
  const { id } = await params;
  const ctx = await viewerContext();
  const payment = ctx ? await getLocalPayment(ctx.db, id, ctx.principal.userId) : null;
  if (!payment || payment.returnUrl === null) notFound();
  const [t, tb, f] = await Promise.all([getTranslations("payLocal"), getTranslations("billing"), getFormat()]);
  const statusKey = `st_${payment.status}` as "st_pending";
  const pay = `/pay/local/${encodeURIComponent(id)}/pay`;
  const decline = `/pay/local/${encodeURIComponent(id)}/decline`;
  return (
    <div className="mx-auto max-w-md px-4 py-16">
      <Card title={t("cardTitle")}>
        <dl className="space-y-2 text-sm">
          <div className="flex justify-between">
            <dt className="text-slate-600">{t("amount")}</dt>
            <dd className="font-semibold text-slate-900" data-testid="local-payment-amount">
              {f.money(payment.amountKopecks * 100, "balance")}
            </dd>
          </div>
          <div className="flex justify-between">
            <dt className="text-slate-600">{t("description")}</dt>
            <dd>{payment.description}</dd>
          </div>
          <div className="flex justify-between">
            <dt className="text-slate-600">{t("status")}</dt>
            <dd>
              <Badge tone={payment.status === "succeeded" ? "green" : payment.status === "canceled" ? "red" : "amber"}>
                {tb.has(statusKey) ? tb(statusKey) : payment.status}
              </Badge>
            </dd>
          </div>
        </dl>
        {payment.status === "pending" ? (
          <>
            <p className="mt-4 text-sm text-slate-600">{payment.savePaymentMethod ? t("explainSave") : t("explain")}</p>
            <div className="mt-6 flex gap-3">
              <form method="post" action={pay}>
                <Button type="submit">{t("pay")}</Button>
              </form>
              <form method="post" action={decline}>
                <Button type="submit" variant="secondary">
                  {t("decline")}
                </Button>
              </form>
            </div>
          </>
        ) : (
          <p className="mt-4 text-sm">
            {t("final")}{" "}
            <a className="text-brand-700 underline" href={payment.returnUrl}>
              {t("back")}
            </a>
          </p>
        )}
      </Card>
    </div>
  );
}
