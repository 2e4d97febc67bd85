"use client";

import { useTranslations } from "next-intl";
import { Button } from "./button";

/** What a page shows while its server render is on the way. */
export function PageLoading() {
  const t = useTranslations("states");
  return (
    <div role="status" aria-live="polite" className="flex items-center gap-3 py-16 text-sm text-slate-600" data-testid="page-loading">
      <span aria-hidden className="h-4 w-4 animate-spin rounded-full border-2 border-slate-300 border-t-brand-600" />
      {t("loading")}
    </div>
  );
}

/** What a page shows when its render failed: the reference the server logged, and a retry. */
export function PageError({ error, reset }: { error: Error & { digest?: string }; reset: () => void }) {
  const t = useTranslations("states");
  return (
    <div role="alert" className="mx-auto max-w-lg rounded-lg border border-red-200 bg-white p-6 shadow-sm" data-testid="page-error">
      <h1 className="text-lg font-semibold text-slate-900">{t("errorTitle")}</h1>
      <p className="mt-2 text-sm text-slate-600">{t("errorBody")}</p>
      {error.digest && <p className="mt-2 font-mono text-xs text-slate-700">{error.digest}</p>}
      <Button className="mt-4" onClick={reset}>
        {t("retry")}
      </Button>
    </div>
  );
}
