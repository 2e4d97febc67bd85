import { type StoredGenerationEvent, follow, getGenerationOrThrow, type GenerationRow } from "@/lib/generation";
import type { ToolCall } from "./tool";

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
 * Waits up to `waitMs` for the caller's job to end, turning each event of its log (the stages it
 * passes and the provider's log lines) into a progress notification as it is written. Returns the
 * job's row as it is when the wait ends: final, or still running when the time is up or the client
 * went away (the job goes on either way). A caller who may no longer read the job (key deleted or
 * disabled, session ended, user banned) ends the wait at once with that refusal, as the streams do.
 */
export async function followJob(call: ToolCall, row: GenerationRow, waitMs: number): Promise<GenerationRow> {
  const following = follow(call.ctx.db, row.id, {
    kinds: ["progress", "log"],
    caller: call.ctx.principal,
    deadlineMs: Date.now() + waitMs,
    signal: call.signal,
  });
  for (;;) {
    const step = await following.next();
    if (step.done) {
      if (step.value.end === "refused") throw step.value.refusal;
      return getGenerationOrThrow(call.ctx, row.id);
    }
    for (const event of step.value) {
      const message = messageOf(event);
      if (message) await call.progress(message);
    }
  }
}
