import { getTranslations } from "next-intl/server";
import { PageHeader } from "@/components/ui/card";
import { requireViewer } from "@/lib/auth/viewer";
import { getBalanceCredits } from "@/lib/billing/ledger/ledger";
import { env } from "@/lib/core/env";
import { getAutoTopupSettings } from "@/lib/billing/payments/auto-topup/settings";
import { listPayments } from "@/lib/billing/payments/list-payments";
import { listPaymentMethods } from "@/lib/billing/payments/methods/list-methods";
import { reconcileUserPending } from "@/lib/billing/payments/reconcile-user";
import { AutoTopupForm } from "../auto-topup-form";
import { BalanceCard } from "../balance-card";
import { PaymentHistory } from "../payment-history";
import { PaymentMethodsCard } from "../payment-methods-card";
import { TopupForm } from "../topup-form";

export async function generateMetadata() {
  return { title: (await getTranslations("billing"))("title") };
}
export const dynamic = "force-dynamic";

export default async function BillingPage() {
  const ctx = await requireViewer();
  const { db, principal } = ctx;
  const userId = principal.userId;
  await reconcileUserPending(db, userId);
  const [balance, history, methods, autoTopup] = await Promise.all([
    getBalanceCredits(db, userId),
    listPayments(ctx, { limit: 50, offset: 0 }),
    listPaymentMethods(ctx),
    getAutoTopupSettings(db, userId),
  ]);
  const minTopupRub = env().MIN_TOPUP_RUB;
  const t = await getTranslations("billing");
  return (
    <>
      <PageHeader title={t("title")} description={t("description")} />
      <div className="space-y-6">
        <div className="grid gap-6 lg:grid-cols-2">
          <BalanceCard balanceCredits={balance} />
          <TopupForm minTopupRub={minTopupRub} returnUrl={new URL("/dashboard/billing", env().APP_URL).toString()} />
        </div>
        <PaymentHistory payments={history.items} total={history.total} />
        <div className="grid gap-6 lg:grid-cols-2">
          <PaymentMethodsCard methods={methods.items} />
          <AutoTopupForm settings={autoTopup} minTopupRub={minTopupRub} hasCard={methods.items.length > 0} />
        </div>
      </div>
    </>
  );
}
