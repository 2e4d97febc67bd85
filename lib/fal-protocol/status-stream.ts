import { eq } from "drizzle-orm";
import { generationRequests } from "@/db/schema";
import type { ServiceContext } from "@/lib/context";
import { env } from "@/lib/env";
import { eventHub, generationTopic, keyTopic, sessionTopic, userTopic, watch } from "@/lib/generation/event-hub";
import { logsOf } from "@/lib/generation/logs";
import { streamCallerRefusal } from "@/lib/generation/stream-standing";
import { takeStreamSlot } from "@/lib/generation/stream-slots";
import { isFinal, type GenerationRow } from "@/lib/generation/types";
import { httpStatusOf } from "@/lib/http/errors";
import { falBodyOf } from "./errors";
import { falLogs, falStatus } from "./render";
import { falSse } from "./sse";
import { idHeader, queueBaseOf, type FalVia } from "./urls";

/** Following a job without change notices: re-read it this often; re-check the caller's standing this often. */
const POLL_MS = 1_000;
const STANDING_CHECK_MS = 3_000;

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

/** The topics that say a caller's standing may have changed (its key, its user, its session). */
const standingTopics = (p: ServiceContext["principal"]) => [
  userTopic(p.userId),
  ...(p.apiKeyId ? [keyTopic(p.apiKeyId)] : []),
  ...(p.sessionId ? [sessionTopic(p.sessionId)] : []),
];

/**
 * GET …/status/stream: a `data:` status whenever it changes, closed after COMPLETED. Woken by the
 * job's change notices (re-reading every second without them); a caller that may no longer read
 * it (key deleted or disabled, user banned) ends it with an `event: error` in fal's body.
 */
export async function statusStream(
  ctx: ServiceContext,
  job: GenerationRow,
  withLogs: boolean,
  via: FalVia,
  signal: AbortSignal,
): Promise<Response> {
  const release = takeStreamSlot(ctx.principal.userId);
  const hub = await eventHub();
  const jobTopic = generationTopic(job.id);
  const changes = watch(hub, [jobTopic, ...standingTopics(ctx.principal)]);
  await hub.ready();
  return falSse(
    async (send, abort) => {
      let last = "";
      let standingCheckedAt = Date.now();
      let woken = new Set<string>();
      for (let row = job; ;) {
        if (last === "" || woken.has(jobTopic) || !hub.listening) {
          row = await reload(ctx, job.id);
          const logs = withLogs && row.status !== "queued" ? falLogs(await logsOf(ctx.db, row.id)) : null;
          const body = falStatus(row, queueBaseOf(via), logs);
          const text = JSON.stringify(body);
          if (text !== last) send(body);
          last = text;
          if (isFinal(row.status)) return;
        }
        if (abort.aborted) return;
        const standingDue = hub.listening ? [...woken].some((t) => t !== jobTopic) : Date.now() - standingCheckedAt >= STANDING_CHECK_MS;
        if (standingDue) {
          standingCheckedAt = Date.now();
          const refusal = await streamCallerRefusal(ctx.db, ctx.principal);
          if (refusal)
            return send(falBodyOf(httpStatusOf(refusal), { success: false, error: refusal.code, message: refusal.message }).body, "error");
        }
        woken = await changes.wait({ signal: abort, fallbackMs: POLL_MS });
        if (abort.aborted) return;
      }
    },
    {
      signal,
      onClose: () => {
        changes.close();
        release();
      },
      headers: idHeader(job.id),
    },
  );
}
