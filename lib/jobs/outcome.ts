import type { JobEvent, MemoizedStep } from "@/db/schema";
import { parseWaitIf, waitMatchValue } from "./expression";
import type { CallOutcome, Op } from "./protocol";
import { dueAt } from "./time";

/**
 * What one answer of the serve() handler means for a run, decided without touching the database:
 * the run ends, a step's result is memoised, the attempt is retried, or the run waits for an
 * event. Ops the executor does not reproduce end the run with an error naming them.
 */

/** A wait as the run records it. */
export type WaitSpec = {
  stepId: string;
  displayName: string | null;
  eventName: string;
  expression: string | null;
  matchValue: string | null;
  dueAt: number;
};

export type Decision =
  | { kind: "finish"; result: { status: "completed"; output: unknown } | { status: "failed"; error: unknown } }
  | { kind: "memo"; stepId: string; step: MemoizedStep }
  | { kind: "retry"; afterMs?: number }
  | { kind: "wait"; wait: WaitSpec }
  /** A look-ahead call (`planOnly`) found a step to run next: nothing ran. */
  | { kind: "planned" };

/** What a run is attempting: its attempt number (0-based) and how many it has. */
export type Attempts = { attempt: number; maxAttempts: number };

/** Ops of features the executor does not reproduce, named as a function would use them. */
const UNSUPPORTED_OPS: Record<string, string> = {
  Sleep: "step.sleep / step.sleepUntil",
  StepPlanned: "parallel steps",
  InvokeFunction: "step.invoke",
  WaitForSignal: "step.waitForSignal",
  Gateway: "step.fetch",
  AIGateway: "step.ai.infer",
  DeferAdd: "defer",
  DeferAbort: "defer",
};

const WAIT_IF_FORMS = '`async.data.<path> == "<literal>"` or `event.data.<path> == async.data.<path>`';

const unsupported = (what: string, detail = "needs an Inngest server; the embedded executor does not run it"): Decision => ({
  kind: "finish",
  result: { status: "failed", error: { name: "UnsupportedByEmbeddedExecutor", message: `${what} ${detail}` } },
});

export function decide(outcome: CallOutcome, run: Attempts & { event: JobEvent }, now: number, planOnly = false): Decision {
  const lastAttempt = run.attempt + 1 >= run.maxAttempts;
  if (outcome.kind === "complete") return { kind: "finish", result: { status: "completed", output: outcome.output } };
  if (outcome.kind === "error") {
    if (outcome.retriable && !lastAttempt) return { kind: "retry", afterMs: outcome.retryAfterMs };
    return { kind: "finish", result: { status: "failed", error: outcome.error } };
  }
  const { ops } = outcome;
  if (planOnly && ops.length === 1 && ops[0]!.op === "StepPlanned") return { kind: "planned" };
  const refused = ops.find((o) => UNSUPPORTED_OPS[o.op]) ?? ops.find((o) => !KNOWN_OPS.has(o.op));
  if (refused) return unsupported(UNSUPPORTED_OPS[refused.op] ?? `the ${refused.op} op`);
  const complete = ops.find((o) => o.op === "RunComplete");
  if (complete) return { kind: "finish", result: { status: "completed", output: complete.data ?? null } };
  // Several new steps at once are parallel steps (Promise.all over steps).
  if (ops.length !== 1) return unsupported(UNSUPPORTED_OPS.StepPlanned!);
  const op = ops[0]!;
  if (op.op === "StepRun") return { kind: "memo", stepId: op.id, step: { type: "data", data: op.data ?? null } };
  if (op.op === "StepFailed" || (op.op === "StepError" && lastAttempt)) {
    return { kind: "memo", stepId: op.id, step: { type: "error", error: op.error ?? null } };
  }
  if (op.op === "StepError") return { kind: "retry", afterMs: outcome.retryAfterMs };
  return waitFor(op, run.event, now);
}

const KNOWN_OPS = new Set(["StepRun", "StepError", "StepFailed", "WaitForEvent", "RunComplete"]);

/** A WaitForEvent op as a wait to record, or the run's end if its `if` is not one the executor evaluates. */
function waitFor(op: Op, runEvent: JobEvent, now: number): Decision {
  const name = op.displayName ?? op.name ?? op.id;
  const eventName = String(op.name ?? op.opts?.["event"]);
  const expression = typeof op.opts?.["if"] === "string" && op.opts["if"] ? (op.opts["if"] as string) : null;
  if (eventName.startsWith("inngest/"))
    return unsupported(
      `step.waitForEvent ${JSON.stringify(name)} for ${eventName}:`,
      "waiting for system events is not supported by the embedded executor",
    );
  const condition = expression ? parseWaitIf(expression) : undefined;
  if (expression && !condition) {
    return unsupported(
      `step.waitForEvent ${JSON.stringify(name)}:`,
      `the \`if\` ${JSON.stringify(expression)} is not supported by the embedded executor (only ${WAIT_IF_FORMS})`,
    );
  }
  return {
    kind: "wait",
    wait: {
      stepId: op.id,
      displayName: op.displayName ?? op.name ?? null,
      eventName,
      expression,
      matchValue: (condition && waitMatchValue(condition, runEvent)) ?? null,
      dueAt: dueAt(String(op.opts?.["timeout"] ?? "365d"), now),
    },
  };
}
