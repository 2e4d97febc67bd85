import { useTranslations } from "next-intl";
import { Alert, Badge } from "@/components/dashboard/ui";
import type { RunPhase, RunState } from "./run-state";

const TONES: Partial<Record<RunPhase, "green" | "red" | "amber" | "brand">> = {
  completed: "green",
  failed: "red",
  cancelled: "amber",
  in_progress: "brand",
  fetching: "brand",
};

/** Live state of a run: status, queue position, stage with a progress bar, and the provider's logs. */
export function RunProgress({ state }: { state: RunState }) {
  const t = useTranslations("run");
  const showBar = state.phase !== "completed" && state.phase !== "failed" && state.phase !== "cancelled";
  return (
    <div className="space-y-2 rounded-md border border-slate-200 bg-white p-3" aria-live="polite">
      <div className="flex flex-wrap items-center gap-2 text-sm">
        <span data-testid="run-status" data-phase={state.phase}>
          <Badge tone={TONES[state.phase] ?? "slate"}>{state.phase === "idle" ? "" : t(state.phase)}</Badge>
        </span>
        {state.queuePosition !== null && state.phase === "queued" && <span className="text-slate-500">#{state.queuePosition + 1}</span>}
        {state.stage && showBar && (
          <span className="text-slate-500" data-testid="run-stage">
            {state.stage}
          </span>
        )}
        {state.requestId && (
          <span className="ml-auto font-mono text-xs text-slate-600" data-testid="run-request-id">
            {state.requestId}
          </span>
        )}
      </div>
      {showBar && (
        <div
          className="h-1.5 overflow-hidden rounded-full bg-slate-100"
          role="progressbar"
          aria-valuemin={0}
          aria-valuemax={100}
          aria-valuenow={state.percent ?? undefined}
        >
          <div
            className={`h-full bg-brand-500 transition-all ${state.percent === null ? "w-1/3 animate-pulse" : ""}`}
            style={state.percent === null ? undefined : { width: `${state.percent}%` }}
          />
        </div>
      )}
      {state.logs.length > 0 && (
        <ol
          tabIndex={0}
          className="max-h-40 overflow-auto rounded bg-slate-900 p-2 font-mono text-xs text-slate-100"
          data-testid="run-logs"
        >
          {state.logs.map((l, i) => (
            <li key={i}>
              {l.timestamp && <span className="mr-2 text-slate-400">{l.timestamp.slice(11, 19)}</span>}
              {l.message}
            </li>
          ))}
        </ol>
      )}
      {state.failure && (
        <div data-testid="run-failure">
          <Alert>
            <span className="font-mono text-xs">{state.failure.code}</span> — {state.failure.message}
          </Alert>
        </div>
      )}
    </div>
  );
}
