import { useTranslations } from "next-intl";
import { Money } from "@/components/money/money";
import { Card } from "@/components/ui/card";

export function BalanceCard({ balanceCredits }: { balanceCredits: number }) {
  const t = useTranslations("billing");
  return (
    <Card title={t("balance")}>
      <p className="text-3xl font-semibold tracking-tight text-slate-900">
        <Money credits={balanceCredits} kind="balance" testId="balance" />
      </p>
      <p className="mt-2 text-sm text-slate-600">{t("balanceNote")}</p>
    </Card>
  );
}
