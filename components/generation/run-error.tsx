import { useLocale, useTranslations } from "next-intl";
import Link from "next/link";
import { Alert } from "@/components/dashboard/ui";
import { formatRubles } from "@/lib/i18n/format";
import type { ErrorView } from "./error-view";

/** An error envelope in the server's words, with what to do next: top up (402), wait (429/503). */
export function RunErrorAlert({ error }: { error: ErrorView }) {
  const t = useTranslations("run");
  const locale = useLocale();
  return (
    <div data-testid="run-error" data-code={error.code}>
      <Alert tone={error.status === 402 || error.status === 429 ? "amber" : "red"}>
        <p>
          <span className="font-mono text-xs">{error.code}</span> — {error.message}
        </p>
        {error.topup && (
          <p className="mt-2">
            {error.topup.requiredRub !== undefined && (
              <span className="mr-2">
                {t("required")} {formatRubles(error.topup.requiredRub, "charge", locale)}
                {error.topup.availableRub !== undefined &&
                  `, ${t("available")} ${formatRubles(error.topup.availableRub, "balance", locale)}`}
                .
              </span>
            )}
            <Link href={error.topup.href} className="font-medium underline" data-testid="topup-link">
              {t("topup")}
            </Link>
          </p>
        )}
        {error.retryAfterSec !== undefined && <p className="mt-1">{t("retry", { s: error.retryAfterSec })}</p>}
        {error.otherIssues.length > 0 && (
          <ul className="mt-2 list-disc pl-5">
            {error.otherIssues.map((m) => (
              <li key={m}>{m}</li>
            ))}
          </ul>
        )}
        {error.supportId && (
          <p className="mt-1 text-xs opacity-70">
            {t("support")}: <span className="font-mono">{error.supportId}</span>
          </p>
        )}
      </Alert>
    </div>
  );
}
