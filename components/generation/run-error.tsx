import { useLocale, useTranslations } from "next-intl";
import Link from "next/link";
import type { ReactNode } from "react";
import { Alert } from "@/components/dashboard/ui";
import { formatRubles } from "@/lib/i18n/format";
import type { ErrorView } from "./error-view";

/** The error codes that have their own sentence (message files: `run.errors.<code>`). */
const SAID = new Set([
  "invalid_body",
  "insufficient_balance",
  "rate_limited",
  "key_limit_exceeded",
  "provider_error",
  "generation_failed",
  "timeout",
  "unauthorized",
  "forbidden",
  "unknown_model",
  "not_found",
  "payload_too_large",
  "network_error",
  "cancelled",
]);

type ErrorKey = "invalid_body" | "other";

/** The sentence for an error code: its own, or "something went wrong" for a code without one. */
export function useErrorSentence(): (code: string, status?: number) => string {
  const t = useTranslations("run.errors");
  return (code, status) => {
    // 503 provider_error is the open circuit: the provider keeps failing, new runs are held back.
    if (code === "provider_error" && status === 503) return t("provider_busy");
    return t((SAID.has(code) ? code : "other") as ErrorKey);
  };
}

/**
 * The code and the server's own words, in small print under the sentence (for support, and the
 * curious). The API speaks English, so its words are marked so on a Russian page.
 */
export function SmallPrint({ code, message, supportId }: { code: string; message?: string; supportId?: string }) {
  const t = useTranslations("run");
  return (
    <p className="mt-2 break-words text-xs opacity-80" data-testid="error-small-print">
      <span className="font-mono">{code}</span>
      {message && (
        <>
          {" · "}
          <span lang="en">{message}</span>
        </>
      )}
      {supportId && (
        <>
          {" · "}
          {t("support")}: <span className="font-mono">{supportId}</span>
        </>
      )}
    </p>
  );
}

/**
 * A refused or broken request in words: what happened, what was charged (a refused run reserves
 * nothing), what to do next (top up on 402; on 429 the limit and when to retry), and the code in
 * small print.
 */
export function RunErrorAlert({ error, children }: { error: ErrorView; children?: ReactNode }) {
  const t = useTranslations("run");
  const sentence = useErrorSentence();
  const locale = useLocale();
  const retryAt = error.retryAt ? new Date(error.retryAt) : null;
  return (
    <div data-testid="run-error" data-code={error.code}>
      <Alert tone={error.status === 402 || error.status === 429 || error.status === 400 ? "amber" : "red"}>
        <p className="font-medium" data-testid="run-error-sentence">
          {sentence(error.code, error.status)}
          {error.code === "rate_limited" && error.limit !== undefined && <> {t("limitPerHour", { limit: error.limit })}</>}
        </p>
        {error.topup && (
          <p className="mt-1">
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
        {retryAt && (
          <p className="mt-1" data-testid="run-error-retry">
            {/* Shown only after a click (never server-rendered): the browser's own clock and time zone. */}
            {t("retryAt", {
              wait:
                error.retryAfterSec! > 90
                  ? t("minutes", { m: Math.ceil(error.retryAfterSec! / 60) })
                  : t("seconds", { s: error.retryAfterSec! }),
              time: retryAt.toLocaleTimeString(locale, { hour: "2-digit", minute: "2-digit", second: "2-digit" }),
            })}
          </p>
        )}
        {error.otherIssues.length > 0 && (
          <ul className="mt-1 list-disc pl-5">
            {error.otherIssues.map((m) => (
              <li key={m}>{m}</li>
            ))}
          </ul>
        )}
        <p className="mt-1" data-testid="run-error-money">
          {error.code === "network_error" ? t("maybeStarted") : t("notCharged")}
        </p>
        {children}
        <SmallPrint code={error.code} message={error.message} supportId={error.supportId} />
      </Alert>
    </div>
  );
}
