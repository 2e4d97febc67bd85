import type { ServiceContext } from "@/lib/auth/context";
import { eq } from "drizzle-orm";
import type { Db } from "@/db/client";
import { generationRequests } from "@/db/schema";
import { type DomainError } from "@/lib/core/errors";
import { skillCodeOf } from "@/lib/http/errors";
import { sseDone, sseResponse, type SseSend } from "@/lib/http/sse";
import {
  eventsAfter,
  lastEventAt,
  logsUpTo,
  type GenerationEventKind,
  type StoredGenerationEvent,
  follow,
  skillResult,
  statusBody,
  takeStreamSlot,
  isFinal,
  type GenerationRow,
} from "@/lib/generation";

/**
 * SSE streams of a job, fed by its event log (generation_events). Each event's `id:` is the `seq`
 * of the log row it renders, so a reconnect's Last-Event-ID resumes right after it: the stream
 * reads only the rows after that id, plus the little state rendering needs as of that id (the
 * status then; the logs so far with `logs=1`). Then it follows the job (`follow`, lib/generation/
 * follow.ts: woken by change notices from any instance, so an idle stream makes no query), sends
 * exactly one final event and closes.
 * A reconnect (Last-Event-ID) to an ended request at or past its final event answers 204, the
 * EventSource standard's "stop reconnecting"; one from before the final event gets the rest, and a
 * first connection (no Last-Event-ID) gets the final event alone: a client that opens the stream
 * just after a fast job ended still learns the ending. See docs/streams.md.
 *
 * The caller's standing is followed too (`follow`'s `caller`): a stream whose key was
 * deleted or disabled, whose session ended or whose user was banned after it opened ends with a
 * final `error` event carrying the refusal a new request would get (and no id), so a client's
 * reconnect meets that refusal.
 */

type Surface = "gateway" | "skill";

/** The final event of a stream whose caller may no longer read it, in the surface's error shape. */
function sendRefusal(send: SseSend, surface: Surface, refusal: DomainError) {
  send(
    "error",
    surface === "skill" ? { error: refusal.message, code: skillCodeOf[refusal.code] } : { error: refusal.code, message: refusal.message },
  );
}

type StreamKind = {
  /** The kinds of log rows this stream renders (and takes its ids from). */
  kinds: readonly GenerationEventKind[];
  /** The kind of the stream's final event. */
  finalKind: GenerationEventKind;
  /** Reads the state the events up to `seq` left, for a resumed stream. */
  resume?: (seq: number) => Promise<void>;
  /** Sends one event; true once it was the stream's final one. */
  render: (event: StoredGenerationEvent, send: SseSend) => Promise<boolean>;
};

async function streamOf(
  ctx: ServiceContext,
  surface: Surface,
  job: GenerationRow,
  stream: StreamKind,
  from: number | null,
  signal?: AbortSignal,
): Promise<Response> {
  const { db } = ctx;
  if (isFinal(job.status)) {
    if (from === null) {
      // A first connection to an ended job gets its final event (as of then), then the close.
      const final = await lastEventAt(db, job.id, stream.finalKind, Number.MAX_SAFE_INTEGER);
      if (!final) return sseDone();
      from = final.seq - 1;
    }
    const rest = await eventsAfter(db, job.id, from, stream.kinds);
    if (rest.length === 0) return sseDone();
    // Nothing left to follow: the events, then the close, with no slot or notices taken.
    const resumeFrom = from;
    return sseResponse(
      async (send) => {
        await stream.resume?.(resumeFrom);
        for (const event of rest) if (await stream.render(event, send)) return;
      },
      { signal },
    );
  }
  const release = takeStreamSlot(job.userId);
  return sseResponse(
    async (send, abort) => {
      if (from !== null) await stream.resume?.(from);
      const events = follow(db, job.id, { after: from ?? 0, kinds: stream.kinds, caller: ctx.principal, signal: abort });
      try {
        for (;;) {
          const step = await events.next();
          if (step.done) {
            if (step.value.end === "refused") sendRefusal(send, surface, step.value.refusal);
            return;
          }
          for (const event of step.value) if (await stream.render(event, send)) return;
        }
      } finally {
        await events.return({ end: "aborted" });
      }
    },
    { signal, onClose: release },
  );
}

async function currentRow(db: Db, id: string): Promise<GenerationRow> {
  return (await db.select().from(generationRequests).where(eq(generationRequests.id, id)))[0]!;
}

type StatusData = { status: GenerationRow["status"]; queue_position?: number; error?: string };
type LogLine = { message: string; timestamp: string };

const isFinalStatus = (data: Record<string, unknown>) => isFinal(data.status as GenerationRow["status"]);
const logLine = (data: Record<string, unknown>): LogLine => ({ message: String(data.message), timestamp: String(data.timestamp) });

/** The job as a status event left it: its status, queue position and error then, not now. */
function asOf(job: GenerationRow, data: StatusData): GenerationRow {
  return {
    ...job,
    status: data.status,
    queuePosition: typeof data.queue_position === "number" ? data.queue_position : null,
    errorCode: typeof data.error === "string" ? data.error : data.status === "cancelled" ? "cancelled" : null,
  };
}

/**
 * Gateway `status/stream`: event `status`, data = the status body as of that event. With `logs`,
 * each log line is a `status` event too, carrying the logs so far and the status at that moment.
 */
export function gatewayStatusStream(ctx: ServiceContext, job: GenerationRow, withLogs: boolean, from: number | null, signal?: AbortSignal) {
  const { db } = ctx;
  // Every job's log opens with its `queued` status; a log line cannot come before it.
  let state: StatusData = { status: "queued" };
  let logs: LogLine[] = [];
  const body = () => statusBody(asOf(job, state), withLogs ? [...logs] : undefined, { servedBy: false });
  return streamOf(
    ctx,
    "gateway",
    job,
    {
      kinds: withLogs ? ["status", "log"] : ["status"],
      finalKind: "status",
      resume: async (seq) => {
        state = ((await lastEventAt(db, job.id, "status", seq))?.data as StatusData | undefined) ?? state;
        if (withLogs) logs = await logsUpTo(db, job.id, seq);
      },
      render: async (event, send) => {
        if (event.kind === "log") logs.push(logLine(event.data));
        else state = event.data as StatusData;
        send("status", body(), event.seq);
        return event.kind === "status" && isFinalStatus(event.data);
      },
    },
    from,
    signal,
  );
}

/** Gateway `progress/stream`: event `progress` `{stage, percent?, message?}`. */
export function gatewayProgressStream(ctx: ServiceContext, job: GenerationRow, from: number | null, signal?: AbortSignal) {
  return streamOf(
    ctx,
    "gateway",
    job,
    {
      kinds: ["progress"],
      finalKind: "progress",
      render: async (event, send) => {
        send("progress", event.data, event.seq);
        return ["completed", "failed", "cancelled"].includes(event.data.stage as string);
      },
    },
    from,
    signal,
  );
}

/** Skill stream: `status` `{id, status, queue_position?}`, `log`, then `completed` / `failed` with the GenerationResult. */
export function skillStream(ctx: ServiceContext, job: GenerationRow, from: number | null, signal?: AbortSignal) {
  const { db } = ctx;
  return streamOf(
    ctx,
    "skill",
    job,
    {
      kinds: ["status", "log"],
      finalKind: "status",
      render: async (event, send) => {
        if (event.kind === "log") {
          send("log", logLine(event.data), event.seq);
          return false;
        }
        const data = event.data as StatusData;
        if (isFinalStatus(data)) {
          // The job's row is final in the same statement that wrote this event.
          send(data.status === "completed" ? "completed" : "failed", skillResult(await currentRow(db, job.id)), event.seq);
          return true;
        }
        send(
          "status",
          { id: job.id, status: data.status, ...(data.queue_position != null ? { queue_position: data.queue_position } : {}) },
          event.seq,
        );
        return false;
      },
    },
    from,
    signal,
  );
}
