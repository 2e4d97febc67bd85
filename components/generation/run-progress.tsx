import { useTranslations } from "next-intl";
import { useEffect, useRef, type ReactNode } from "react";
import { Badge } from "@/components/dashboard/ui";
import { isFinished, type RunPhase, type RunState } from "./run-state";

const TONES: Partial<Record<RunPhase, "green" | "red" | "amber" | "brand">> = {
  completed: "green",
  failed: "red",
  cancelled: "amber",
  in_progress: "brand",
  fetching: "brand",
};

/** Progress stages that say more than the status beside them (`queued` and `running` would repeat it). */
const TOLD_STAGES = new Set(["submitted", "storing"]);

/**
 * The run's one status (a badge), its queue position, the stage when it adds to the status, the
 * request id and whatever the caller puts beside them (Cancel), then the progress bar while it runs.
 */
export function RunProgress({ state, children }: { state: RunState; children?: ReactNode }) {
  const t = useTranslations("run");
  const running = !isFinished(state.phase);
  const stage = running && state.stage && TOLD_STAGES.has(state.stage) ? state.stage : null;
  return (
    <div className="space-y-2" data-testid="run-status-line">
      <div className="flex flex-wrap items-center gap-2 text-sm">
        <span data-testid="run-status" data-phase={state.phase}>
          <Badge tone={TONES[state.phase] ?? "slate"}>{state.phase === "idle" ? "" : t(state.phase)}</Badge>
        </span>
        {state.queuePosition !== null && state.phase === "queued" && <span className="text-slate-600">#{state.queuePosition + 1}</span>}
        {stage && (
          <span className="text-slate-600" data-testid="run-stage">
            {t(`stage.${stage}` as "stage.submitted")}
          </span>
        )}
        {children}
        {state.requestId && (
          <span className="ml-auto break-all font-mono text-xs text-slate-600" data-testid="run-request-id">
            {state.requestId}
          </span>
        )}
      </div>
      {running && (
        <div
          className="h-1.5 overflow-hidden rounded-full bg-slate-100"
          role="progressbar"
          aria-label={t(state.phase === "idle" ? "submitting" : state.phase)}
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
    </div>
  );
}

/**
 * The provider's log, every line of it: while the run goes on, a box that keeps its newest line
 * in view; once it has ended, the whole log at its full height (the result sits above it).
 */
export function RunLog({ state }: { state: RunState }) {
  const t = useTranslations("run");
  const box = useRef<HTMLOListElement>(null);
  const finished = isFinished(state.phase);
  const count = state.logs.length;
  useEffect(() => {
    if (box.current) box.current.scrollTop = box.current.scrollHeight;
  }, [count]);
  if (count === 0) return null;
  return (
    <section aria-label={t("log")}>
      <h3 className="mb-1 text-xs font-medium uppercase tracking-wider text-slate-600">{t("log")}</h3>
      <ol
        ref={box}
        tabIndex={0}
        className={`overflow-auto rounded bg-slate-900 p-2 font-mono text-xs text-slate-100 ${finished ? "" : "max-h-40"}`}
        data-testid="run-logs"
      >
        {state.logs.map((l, i) => (
          <li key={i}>
            {l.timestamp && <span className="mr-2 text-slate-400">{l.timestamp.slice(11, 19)}</span>}
            {l.message}
          </li>
        ))}
      </ol>
    </section>
  );
}
