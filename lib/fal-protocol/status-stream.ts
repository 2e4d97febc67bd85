import { eq } from "drizzle-orm";
import { generationRequests } from "@/db/schema";
import type { ServiceContext } from "@/lib/auth/context";
import { env } from "@/lib/core/env";
import { follow, until, logsOf, takeStreamSlot, isFinal, type GenerationRow } from "@/lib/generation";
import { httpStatusOf } from "@/lib/http/errors";
import { falBodyOf } from "./errors";
import { falLogs, falStatus } from "./render";
import { falSse } from "./sse";
import { idHeader, queueBaseOf, type FalVia } from "./urls";

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
 * job's change notices (`until`, lib/generation/follow.ts) and reads nothing in between.
 */
export async function heldStatus(
  ctx: ServiceContext,
  first: GenerationRow,
  withLogs: boolean,
  signal: AbortSignal,
): Promise<{ row: GenerationRow; logs: { message: string; timestamp: string }[] | null }> {
  const read = async () => ({ row: await reload(ctx, first.id), logs: withLogs ? await logsOf(ctx.db, first.id) : null });
  const hold = env().FAL_STATUS_HOLD_MS;
  const logs = withLogs ? await logsOf(ctx.db, first.id) : null;
  if (isFinal(first.status) || hold <= 0) return { row: first, logs };
  const before = stateOf(first, logs?.length ?? 0);
  return until(first.id, read, ({ row, logs }) => stateOf(row, logs?.length ?? 0) !== before, { deadlineMs: Date.now() + hold, signal });
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
