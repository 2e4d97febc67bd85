import { eq } from "drizzle-orm";
import { generationRequests } from "@/db/schema";
import type { ServiceContext } from "@/lib/auth/context";
import { env } from "@/lib/core/env";
import { eventHub, generationTopic, watch } from "@/lib/generation/event-hub";
import { follow } from "@/lib/generation/follow";
import { logsOf } from "@/lib/generation/logs";
import { takeStreamSlot } from "@/lib/generation/stream-slots";
import { isFinal, type GenerationRow } from "@/lib/generation/types";
import { httpStatusOf } from "@/lib/http/errors";
import { falBodyOf } from "./errors";
import { falLogs, falStatus } from "./render";
import { falSse } from "./sse";
import { idHeader, queueBaseOf, type FalVia } from "./urls";

/** Holding a poll without change notices: re-read the job this often. */
const POLL_MS = 1_000;

export async function reload(ctx: ServiceContext, id: string): Promise<GenerationRow> {
  const [row] = await ctx.db.select().from(generationRequests).where(eq(generationRequests.id, id)).limit(1);
  return row!;
}

const stateOf = (row: GenerationRow, logs: number) => `${row.status}:${row.queuePosition ?? ""}:${logs}`;

/**
 * A status poll of a job that has not ended is held until the job changes (status, queue
 * position, a new log line with `logs`) or FAL_STATUS_HOLD_MS pass, then answered. fal's JS client
 * polls every 500 ms; held, a job costs its key a request per change or per hold instead of two a
 * second, so following a job no longer uses up the key's hourly limit. The hold is woken by the
 * job's change notices (lib/generation/event-hub.ts) and reads nothing in between; without
 * notices it re-reads every second.
 */
export async function heldStatus(
  ctx: ServiceContext,
  first: GenerationRow,
  withLogs: boolean,
  signal: AbortSignal,
): Promise<{ row: GenerationRow; logs: { message: string; timestamp: string }[] | null }> {
  let row = first;
  let logs = withLogs ? await logsOf(ctx.db, row.id) : null;
  const hold = env().FAL_STATUS_HOLD_MS;
  if (isFinal(row.status) || hold <= 0) return { row, logs };
  const deadline = Date.now() + hold;
  const before = stateOf(row, logs?.length ?? 0);
  const hub = await eventHub();
  const changes = watch(hub, [generationTopic(row.id)]);
  try {
    await hub.ready();
    // Read once more now that notices are followed: a change just before is not missed.
    for (;;) {
      row = await reload(ctx, row.id);
      logs = withLogs ? await logsOf(ctx.db, row.id) : null;
      if (stateOf(row, logs?.length ?? 0) !== before || Date.now() >= deadline || signal.aborted) break;
      await changes.wait({ signal, fallbackMs: POLL_MS, untilMs: deadline });
    }
  } finally {
    changes.close();
  }
  return { row, logs };
}

/**
 * GET …/status/stream: a `data:` status whenever it changes, closed after COMPLETED. It follows the
 * job's event log (`follow`: woken by change notices from any instance) and renders the job as it
 * then stands; a caller that may no longer read it (key deleted or disabled, user banned) ends it
 * with an `event: error` in fal's body.
 */
export async function statusStream(
  ctx: ServiceContext,
  job: GenerationRow,
  withLogs: boolean,
  via: FalVia,
  signal: AbortSignal,
): Promise<Response> {
  const release = takeStreamSlot(ctx.principal.userId);
  return falSse(
    async (send, abort) => {
      let last = "";
      const events = follow(ctx.db, job.id, { kinds: withLogs ? ["status", "log"] : ["status"], caller: ctx.principal, signal: abort });
      try {
        for (;;) {
          const step = await events.next();
          if (step.done) {
            const { value } = step;
            if (value.end === "refused")
              send(
                falBodyOf(httpStatusOf(value.refusal), { success: false, error: value.refusal.code, message: value.refusal.message }).body,
                "error",
              );
            return;
          }
          const row = await reload(ctx, job.id);
          const logs = withLogs && row.status !== "queued" ? falLogs(await logsOf(ctx.db, row.id)) : null;
          const body = falStatus(row, queueBaseOf(via), logs);
          const text = JSON.stringify(body);
          if (text !== last) send(body);
          last = text;
          if (isFinal(row.status)) return;
        }
      } finally {
        await events.return({ end: "aborted" });
      }
    },
    { signal, onClose: release, headers: idHeader(job.id) },
  );
}
