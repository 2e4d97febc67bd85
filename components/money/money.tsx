import { useLocale } from "next-intl";
import { exactMoney, formatMoney, type MoneyKind } from "@/lib/i18n/format";

/**
 * An amount of credits on a page, as `formatMoney` prints it. A balance holding a fraction of a
 * kopeck shows its kopecks, rounded down, underlined with dots, with the exact amount in the title
 * (and `data-exact`): what is shown is never more than is there, and never pretends to be all of it.
 */
export function Money({ credits, kind, className, testId }: { credits: number; kind: MoneyKind; className?: string; testId?: string }) {
  const locale = useLocale();
  const exact = kind === "balance" ? exactMoney(credits, locale) : null;
  return (
    <span
      className={`${exact ? "cursor-help underline decoration-dotted underline-offset-4 " : ""}${className ?? ""}`.trim() || undefined}
      title={exact ?? undefined}
      data-exact={exact ?? undefined}
      data-testid={testId}
    >
      {formatMoney(credits, kind, locale)}
    </span>
  );
}
