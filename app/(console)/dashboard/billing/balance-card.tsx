import { useLocale, useTranslations } from "next-intl";
import { Card } from "@/components/ui/card";
import { formatFor } from "@/lib/i18n/format";

export function BalanceCard({ balanceCredits }: { balanceCredits: number }) {
  const t = useTranslations("billing");
  const f = formatFor(useLocale());
  return (
    <Card title={t("balance")}>
      <p className="text-3xl font-semibold tracking-tight text-slate-900" data-testid="balance">
        {f.credits(balanceCredits)}
      </p>
      <p className="mt-2 text-sm text-slate-600">{t("balanceNote")}</p>
    </Card>
  );
}
