"use client";

import { useQuery, useQueryClient } from "@tanstack/react-query";
import { useCallback, useEffect, useReducer, useRef, useState } from "react";
import { errorViewOf } from "@/components/generation/error-view";
import { followRun, requestPath } from "@/components/generation/follow-run";
import { initialRunState, isBusy, runReducer, type RunAction, type RunState } from "@/components/generation/run-state";
import { balanceQueryKey } from "@/components/money/header-balance";
import { apiFetch } from "@/lib/account/api-fetch";
import type { RetryState, RunCost } from "@/lib/generation";

const RETRY_POLL_MS = 3_000;

/** What a Cancel press came to: sent and waiting, or answered that the job could no longer be cancelled. */
export type CancelState = { sending: boolean; refusedStatus: string | null };

export type PlaygroundRun = {
  state: RunState;
  /** Reserved and settled credits of the run, once it has ended. */
  cost: RunCost | null;
  /** The job's provider call failed and is being retried (null while it is not). */
  retry: RetryState | null;
  /**
   * The provider is failing and the job retries in the background: the page says so and lets the
   * person go on (run again) instead of holding them on "Running…" for the retries' minute.
   */
  inBackground: boolean;
  /** The Run button waits: a run is being sent or followed, and is not left to the background. */
  busy: boolean;
  cancel: CancelState;
  /** The viewer's balance in credits (undefined until read, or for a visitor). */
  balance: number | undefined;
  run: (input: Record<string, unknown>) => Promise<void>;
  requestCancel: () => Promise<void>;
};

type Options = {
  modelId: string;
  signedIn: boolean;
  /** Field → message from a 400 `invalid_body`, shown beside the form's fields ({} clears them). */
  onIssues: (issues: Record<string, string>) => void;
  runCost: (requestId: string) => Promise<RunCost | null>;
  runRetry?: (requestId: string) => Promise<RetryState | null>;
};

/** While the run is queued: its retry state, asked every few seconds (a failing provider keeps a job queued). */
function useRetryState(queuedId: string | null, runRetry: Options["runRetry"]): RetryState | null {
  const [retry, setRetry] = useState<{ id: string; state: RetryState | null } | null>(null);
  useEffect(() => {
    if (!queuedId || !runRetry) return;
    let stopped = false;
    const ask = async () => {
      const state = await runRetry(queuedId).catch(() => null);
      if (!stopped) setRetry((prev) => (state || prev?.id !== queuedId ? { id: queuedId, state } : prev));
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

/**
 * One playground run, from the queue's answer to its cost: queue the input, follow it live
 * (status, progress, logs), fetch the result, then the whole log and what it cost; cancel it
 * while the spec allows (queued); report a provider that keeps failing so the person can go on.
 */
export function usePlaygroundRun({ modelId, signedIn, onIssues, runCost, runRetry }: Options): PlaygroundRun {
  const [state, dispatch] = useReducer(runReducer, initialRunState);
  const [cost, setCost] = useState<RunCost | null>(null);
  const [cancel, setCancel] = useState<CancelState>({ sending: false, refusedStatus: null });
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
  const queued = state.phase === "queued" ? state.requestId : null;
  const retry = useRetryState(queued, runRetry);
  const inBackground = retry !== null && queued !== null;

  const run = useCallback(
    async (input: Record<string, unknown>) => {
      abortRef.current?.abort();
      const abort = new AbortController();
      abortRef.current = abort;
      const send = (a: RunAction) => !abort.signal.aborted && dispatch(a);
      setCost(null);
      setCancel({ sending: false, refusedStatus: null });
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
        // The streams may have ended before the last log lines were told: the whole log, once more.
        const status = await fetch(`${base}/status?logs=1`, { signal: abort.signal, cache: "no-store" }).catch(() => null);
        if (status?.ok) send({ type: "sse", event: { event: "status", data: await status.json() } });
        const summary = await runCost(body.requestId);
        if (!abort.signal.aborted) setCost(summary);
        void queryClient.invalidateQueries({ queryKey: balanceQueryKey });
      } catch (err) {
        if (abort.signal.aborted) return;
        send({
          type: "error",
          view: errorViewOf(0, { error: "network_error", message: err instanceof Error ? err.message : "The connection failed" }),
        });
      }
    },
    [modelId, onIssues, queryClient, runCost],
  );

  const requestId = state.requestId;
  const requestCancel = useCallback(async () => {
    if (!requestId) return;
    setCancel({ sending: true, refusedStatus: null });
    const res = await fetch(`${requestPath(modelId, requestId)}/cancel`, { method: "PUT", credentials: "same-origin" }).catch(() => null);
    const body = (await res?.json().catch(() => null)) as { ok?: boolean; status?: string } | null;
    // Cancelled: the status stream says so too (and the run's ending fetches its cost); refused: say why.
    if (body?.ok) dispatch({ type: "sse", event: { event: "status", data: { status: "cancelled" } } });
    setCancel({ sending: false, refusedStatus: body?.ok ? null : (body?.status ?? "unknown") });
  }, [modelId, requestId]);

  return {
    state,
    cost,
    retry,
    inBackground,
    busy: isBusy(state.phase) && !inBackground,
    cancel,
    balance: balance.data,
    run,
    requestCancel,
  };
}
