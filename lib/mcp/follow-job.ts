import { eventsAfter, waitForGenerationNotice, type StoredGenerationEvent } from "@/lib/generation/event-log";
import { getGenerationOrThrow } from "@/lib/generation/get-generation";
import { isFinal, type GenerationRow } from "@/lib/generation/types";
import type { ToolCall } from "./tool";

/** How often a wait looks at the job when no notice wakes it (the job may run on another instance). */
const POLL_MS = 1_000;

const STAGES: Record<string, string> = {
  queued: "Queued",
  submitted: "Submitted to the provider",
  running: "Running",
  storing: "Storing the result",
};

function messageOf(event: StoredGenerationEvent): string | null {
  if (event.kind === "log") return String(event.data.message);
  const stage = STAGES[String(event.data.stage)];
  if (!stage) return null;
  return typeof event.data.percent === "number" ? `${stage} (${event.data.percent}%)` : stage;
}

/**
 * Waits up to `waitMs` for the caller's job to end, turning each event of its log
 * (generation_events: the stages it passes and the provider's log lines) into a progress
 * notification as it is written. Returns the job's row as it is when the wait ends: final, or
 * still running when the time is up or the client went away (the job goes on either way).
 */
export async function followJob(call: ToolCall, row: GenerationRow, waitMs: number): Promise<GenerationRow> {
  const deadline = Date.now() + waitMs;
  let seq = 0;
  let current = row;
  for (;;) {
    for (const event of await eventsAfter(call.ctx.db, row.id, seq, ["progress", "log"])) {
      seq = event.seq;
      const message = messageOf(event);
      if (message) await call.progress(message);
    }
    current = await getGenerationOrThrow(call.ctx, row.id);
    const left = deadline - Date.now();
    if (isFinal(current.status) || left <= 0 || call.signal.aborted) return current;
    await waitForGenerationNotice(row.id, Math.min(POLL_MS, left), call.signal);
  }
}
