"use client";

import { useTranslations } from "next-intl";
import Link from "next/link";
import { TOPUP_PAGE } from "@/components/generation/error-view";
import { useFormat } from "@/lib/i18n/use-format";
import type { PlaygroundRun } from "./use-playground-run";

type Props = {
  modelId: string;
  signedIn: boolean;
  run: PlaygroundRun;
  /** The estimate of the form's input in credits (null when it cannot be priced). */
  estimateCredits: number | null;
  /** Marked fields stop the run before it is sent: how many there are (0: none). */
  blockingFields: number;
  onRun: () => void;
};

/**
 * Under the form: the Run button and the balance, a balance below the estimate said before the
 * run (with the top-up link), and a note when marked fields keep the form from being sent.
 */
export function PlaygroundRunControls({ modelId, signedIn, run, estimateCredits, blockingFields, onRun }: Props) {
  const t = useTranslations("playground");
  const tr = useTranslations("run");
  const f = useFormat();

  if (!signedIn) {
    return (
      <div className="flex flex-wrap items-center gap-3" data-testid="run-signin">
        <Link
          href={`/signin?callbackUrl=${encodeURIComponent(`/catalog/${modelId}`)}`}
          className="rounded-md bg-brand-600 px-4 py-2 text-sm font-medium text-white hover:bg-brand-700"
        >
          {t("signIn")}
        </Link>
        <p className="text-xs text-slate-500">{t("signInNote")}</p>
      </div>
    );
  }

  const { state, busy, cost, balance } = run;
  const low = balance !== undefined && estimateCredits !== null && balance < estimateCredits;
  return (
    <div className="space-y-3">
      {low && (
        <div className="rounded-md border border-amber-200 bg-amber-50 px-3 py-2 text-sm text-amber-900" data-testid="low-balance">
          {t("lowBalance", { balance: f.money(balance, "balance"), price: f.money(estimateCredits, "charge") })}{" "}
          <Link href={TOPUP_PAGE} className="font-medium underline" data-testid="low-balance-topup">
            {tr("topup")}
          </Link>
        </div>
      )}
      <div className="flex flex-wrap items-center gap-3">
        <button
          type="button"
          onClick={onRun}
          disabled={busy}
          className="rounded-md bg-brand-600 px-4 py-2 text-sm font-medium text-white hover:bg-brand-700 disabled:cursor-not-allowed disabled:opacity-60"
          data-testid="run-button"
        >
          {busy ? t("running") : state.phase === "idle" && !state.error ? t("run") : t("again")}
        </button>
        {balance !== undefined && (
          <p className="text-sm text-slate-600">
            {cost ? t("newBalance") : t("balance")}:{" "}
            <span className="font-medium text-slate-900" data-testid="run-balance">
              {f.money(balance, "balance")}
            </span>
          </p>
        )}
      </div>
      {blockingFields > 0 && (
        <p className="text-sm font-medium text-red-700" role="alert" data-testid="run-blocked">
          {t("fixFields", { count: blockingFields })}
        </p>
      )}
    </div>
  );
}
