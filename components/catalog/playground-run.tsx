"use client";

import { useTranslations } from "next-intl";
import { useQuery, useQueryClient } from "@tanstack/react-query";
import Link from "next/link";
import { useEffect, useReducer, useRef, useState } from "react";
import { errorViewOf } from "@/components/generation/error-view";
import { followRun, requestPath } from "@/components/generation/follow-run";
import { ResultView } from "@/components/generation/media-view";
import { RunProgress } from "@/components/generation/run-progress";
import { RunErrorAlert } from "@/components/generation/run-error";
import { initialRunState, isBusy, runReducer, type RunAction } from "@/components/generation/run-state";
import type { RetryState, RunCost } from "@/lib/generation";
import { apiFetch } from "@/lib/account/api-fetch";
import { useFormat } from "@/lib/i18n/use-format";

export const balanceQueryKey = ["me", "balance"] as const;

type Props = {
  modelId: string;
  input: Record<string, unknown>;
  signedIn: boolean;
  /** Field → message from a 400 `invalid_body`, shown beside the form's fields ({} clears them). */
  onIssues: (issues: Record<string, string>) => void;
  /** Server action: reserved and settled credits of the viewer's own request. */
  runCost: (requestId: string) => Promise<RunCost | null>;
  /** The server action that tells whether a queued run's provider call is being retried. */
  runRetry?: (requestId: string) => Promise<RetryState | null>;
};

const RETRY_POLL_MS = 3_000;

/** While the run is queued: its retry state, asked every few seconds (a failing provider keeps a job queued). */
function useRetryState(queuedId: string | null, runRetry: Props["runRetry"]): RetryState | null {
  const [retry, setRetry] = useState<{ id: string; state: RetryState | null } | null>(null);
  useEffect(() => {
    if (!queuedId || !runRetry) return;
    let stopped = false;
    const ask = async () => {
      const state = await runRetry(queuedId).catch(() => null);
      if (!stopped) setRetry({ id: queuedId, state });
    };
    const timer = setInterval(ask, RETRY_POLL_MS);
    void ask();
    return () => {
      stopped = true;
      clearInterval(timer);
    };
  }, [queuedId, runRetry]);
  return retry && retry.id === queuedId ? retry.state : null;
}

/** The model page's run action: queue the input, follow it live, show the result, its cost and the new balance. */
export function PlaygroundRun({ modelId, input, signedIn, onIssues, runCost, runRetry }: Props) {
  const t = useTranslations("playground");
  const tr = useTranslations("activity");
  const f = useFormat();
  const [state, dispatch] = useReducer(runReducer, initialRunState);
  const [cost, setCost] = useState<RunCost | null>(null);
  const abortRef = useRef<AbortController | null>(null);
  const queryClient = useQueryClient();
  const balance = useQuery({
    queryKey: balanceQueryKey,
    queryFn: () => apiFetch<{ balance: number }>("/me/balance").then((r) => r.balance),
    enabled: signedIn,
    retry: false,
    staleTime: 0,
  });
  useEffect(() => () => abortRef.current?.abort(), []);
  const retry = useRetryState(state.phase === "queued" ? state.requestId : null, runRetry);

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

  async function run() {
    abortRef.current?.abort();
    const abort = new AbortController();
    abortRef.current = abort;
    const send = (a: RunAction) => !abort.signal.aborted && dispatch(a);
    setCost(null);
    onIssues({});
    dispatch({ type: "submit" });
    try {
      const res = await fetch(`/queue/${modelId}`, {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify(input),
        credentials: "same-origin",
        signal: abort.signal,
      });
      const body = (await res.json().catch(() => null)) as { requestId?: string; status?: string; queuePosition?: number } | null;
      if (!res.ok || !body?.requestId) {
        const view = errorViewOf(res.status, body, res.headers);
        send({ type: "error", view });
        onIssues(view.fieldIssues);
        return;
      }
      const base = requestPath(modelId, body.requestId);
      send({ type: "accepted", requestId: body.requestId, status: body.status, queuePosition: body.queuePosition ?? null });
      const final = await followRun(base, send, abort.signal);
      if (final === "fetching" || final === "failed") {
        const result = await fetch(base, { signal: abort.signal, cache: "no-store" });
        const data = (await result.json().catch(() => null)) as Record<string, unknown> | null;
        if (result.ok && data) send({ type: "result", body: data });
        else if (final === "failed") send({ type: "result", body: { ...(data ?? {}), status: "failed" } });
        else send({ type: "error", view: errorViewOf(result.status, data, result.headers) });
      }
      const summary = await runCost(body.requestId);
      if (!abort.signal.aborted) setCost(summary);
      void queryClient.invalidateQueries({ queryKey: balanceQueryKey });
    } catch (err) {
      if (abort.signal.aborted) return;
      send({
        type: "error",
        view: errorViewOf(0, { error: "network_error", message: err instanceof Error ? err.message : t("connectionFailed") }),
      });
    }
  }

  async function cancel() {
    if (!state.requestId) return;
    await fetch(`${requestPath(modelId, state.requestId)}/cancel`, { method: "PUT", credentials: "same-origin" }).catch(() => undefined);
  }

  const busy = isBusy(state.phase);
  return (
    <div className="space-y-4">
      <div className="flex flex-wrap items-center gap-3">
        <button
          type="button"
          onClick={run}
          disabled={busy}
          className="rounded-md bg-brand-600 px-4 py-2 text-sm font-medium text-white hover:bg-brand-700 disabled:cursor-not-allowed disabled:opacity-60"
          data-testid="run-button"
        >
          {busy ? t("running") : state.phase === "idle" ? t("run") : t("again")}
        </button>
        {state.phase === "queued" && (
          <button
            type="button"
            onClick={cancel}
            className="rounded-md border border-slate-300 bg-white px-3 py-2 text-sm text-slate-700 hover:bg-slate-50"
          >
            {t("cancel")}
          </button>
        )}
        {balance.data !== undefined && (
          <p className="text-sm text-slate-600">
            {cost ? t("newBalance") : t("balance")}:{" "}
            <span className="font-medium text-slate-900" data-testid="run-balance">
              {f.money(balance.data, "balance")}
            </span>
          </p>
        )}
      </div>
      {state.error && <RunErrorAlert error={state.error} />}
      {state.phase !== "idle" && <RunProgress state={state} />}
      {retry && state.phase === "queued" && (
        <p
          className="rounded-md border border-amber-200 bg-amber-50 px-3 py-2 text-sm text-amber-900"
          role="status"
          data-testid="run-retrying"
        >
          {t("retrying", { attempt: retry.attempt + 1, max: retry.maxAttempts })}{" "}
          {tr(retry.failing === "submit" ? "retryWhySubmit" : "retryWhyPoll")}
        </p>
      )}
      {state.result && <ResultView result={state.result} />}
      {cost && (
        <p className="text-sm text-slate-600" data-testid="run-cost">
          {cost.sandbox ? (
            t("sandbox")
          ) : cost.status === "failed" || cost.status === "cancelled" || (cost.settledCredits === 0 && cost.reservedCredits > 0) ? (
            t("refunded")
          ) : (
            <>
              {t("reserved")} {f.money(cost.reservedCredits, "charge")} · {t("charged")}{" "}
              <span className="font-medium text-slate-900" data-testid="run-charged">
                {cost.settledCredits === null ? "…" : f.money(cost.settledCredits, "charge")}
              </span>
            </>
          )}
        </p>
      )}
    </div>
  );
}
