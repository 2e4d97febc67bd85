import { Card } from "@/components/ui/card";
import { formatCredits } from "@/lib/money/credits";

export function BalanceCard({ balanceCredits }: { balanceCredits: number }) {
  return (
    <Card title="Balance">
      <p className="text-3xl font-semibold tracking-tight text-slate-900" data-testid="balance">
        {formatCredits(balanceCredits)}
      </p>
      <p className="mt-2 text-sm text-slate-600">Every generation is reserved from this balance before it runs; failures are refunded in full.</p>
    </Card>
  );
}
