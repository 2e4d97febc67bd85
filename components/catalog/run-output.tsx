"use client";

import { useTranslations } from "next-intl";
import Link from "next/link";
import { forwardRef } from "react";
import { Alert } from "@/components/dashboard/ui";
import { ResultView } from "@/components/generation/media-view";
import { RunLog, RunProgress } from "@/components/generation/run-progress";
import { RunErrorAlert, SmallPrint, useErrorSentence } from "@/components/generation/run-error";
import type { RunCost } from "@/lib/generation";
import { useFormat } from "@/lib/i18n/use-format";
import type { PlaygroundRun } from "./use-playground-run";

const runPage = (requestId: string) => `/dashboard/activity/${encodeURIComponent(requestId)}`;

/** What an ended run cost, in a sentence: charged (reserved beside it), or nothing and the reserve returned. */
function CostLine({ cost }: { cost: RunCost }) {
  const t = useTranslations("playground");
  const f = useFormat();
  const refunded = cost.status === "failed" || cost.status === "cancelled" || (cost.settledCredits === 0 && cost.reservedCredits > 0);
  return (
    <p className="text-sm text-slate-700" data-testid="run-cost">
      {cost.sandbox ? (
        t("sandbox")
      ) : refunded ? (
        cost.reservedCredits > 0 ? (
          t("refundedAmount", { amount: f.money(cost.reservedCredits, "charge") })
        ) : (
          t("notCharged")
        )
      ) : (
        <>
          {t("reserved")} {f.money(cost.reservedCredits, "charge")} · {t("charged")}{" "}
          <span className="font-medium text-slate-900" data-testid="run-charged">
            {cost.settledCredits === null ? "…" : f.money(cost.settledCredits, "charge")}
          </span>
        </>
      )}
    </p>
  );
}

type Props = { run: PlaygroundRun };

/**
 * The playground's output, beside the form (under Run on a phone): the run's one status, Cancel
 * while the spec lets a job be cancelled (queued), a failing provider said in words with the way
 * on, failures as sentences with what was charged, the result, its cost, and the whole log.
 */
export const RunOutput = forwardRef<HTMLElement, Props>(function RunOutput({ run }, ref) {
  const t = useTranslations("playground");
  const ta = useTranslations("activity");
  const ts = useTranslations("status");
  const sentence = useErrorSentence();
  const { state, cost, retry, inBackground, cancel } = run;
  const idle = state.phase === "idle" && !state.error;
  return (
    <section
      ref={ref}
      aria-labelledby="playground-output-title"
      className="min-w-0 scroll-mt-4 space-y-4 rounded-lg border border-slate-200 bg-white p-5 shadow-sm lg:sticky lg:top-4 lg:max-h-[calc(100vh-2rem)] lg:overflow-y-auto"
      data-testid="run-output"
    >
      <h2 id="playground-output-title" className="font-semibold text-slate-900">
        {t("output")}
      </h2>
      {idle && (
        <p className="rounded-md border border-dashed border-slate-300 p-6 text-center text-sm text-slate-600" data-testid="run-idle">
          {t("outputIdle")}
        </p>
      )}
      <div aria-live="polite" className="space-y-4">
        {state.error && <RunErrorAlert error={state.error} />}
        {state.phase !== "idle" && (
          <RunProgress state={state}>
            {state.phase === "queued" && state.requestId && (
              <button
                type="button"
                onClick={run.requestCancel}
                disabled={cancel.sending}
                className="rounded-md border border-slate-300 bg-white px-3 py-1 text-sm text-slate-700 hover:bg-slate-50 disabled:opacity-60"
                data-testid="run-cancel"
              >
                {cancel.sending ? t("cancelling") : t("cancel")}
              </button>
            )}
            {(state.phase === "in_progress" || state.phase === "fetching") && (
              <span className="text-xs text-slate-600" data-testid="run-cannot-cancel">
                {t("cannotCancel")}
              </span>
            )}
          </RunProgress>
        )}
        {cancel.refusedStatus && (
          <p className="text-sm text-slate-700" data-testid="run-cancel-refused">
            {t("cancelRefused", {
              status: ts.has(cancel.refusedStatus as "queued") ? ts(cancel.refusedStatus as "queued") : cancel.refusedStatus,
            })}
          </p>
        )}
        {inBackground && retry && state.requestId && (
          <div data-testid="run-retrying">
            <Alert tone="amber">
              <p className="font-medium">{t("providerFailing")}</p>
              <p className="mt-1">
                {t("retrying", { attempt: retry.attempt + 1, max: retry.maxAttempts })}{" "}
                {ta(retry.failing === "submit" ? "retryWhySubmit" : "retryWhyPoll")}
              </p>
              <p className="mt-1">{t("providerFailingMoney")}</p>
              <p className="mt-2">
                <Link href={runPage(state.requestId)} className="font-medium underline" data-testid="run-page-link">
                  {t("runPage")}
                </Link>
              </p>
            </Alert>
          </div>
        )}
        {state.failure && (
          <div data-testid="run-failure" data-code={state.failure.code}>
            <Alert>
              <p className="font-medium" data-testid="run-failure-sentence">
                {sentence(state.failure.code)}
              </p>
              {state.requestId && (
                <p className="mt-1">
                  <Link href={runPage(state.requestId)} className="font-medium underline">
                    {t("runPage")}
                  </Link>
                </p>
              )}
              <SmallPrint code={state.failure.code} message={state.failure.message} />
            </Alert>
          </div>
        )}
      </div>
      {state.result && (
        <div className="[&_img]:max-h-[60vh]">
          <ResultView result={state.result} />
        </div>
      )}
      {cost && <CostLine cost={cost} />}
      <RunLog state={state} />
    </section>
  );
});
