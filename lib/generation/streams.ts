import { eq } from "drizzle-orm";
import type { Db } from "@/db/client";
import { generationRequests } from "@/db/schema";
import { sseResponse, type SseSend } from "@/lib/http/sse";
import { eventsAfter, waitForGenerationNotice, type StoredGenerationEvent } from "./events";
import { skillResult, statusBody } from "./present";
import { takeStreamSlot } from "./stream-slots";
import { isFinal, type GenerationRow } from "./types";

/**
 * SSE streams of a job, fed by generation_events: replay from the start, then follow (woken by
 * this process's notices, and polling for writes made by other instances), heartbeats from
 * lib/http/sse, and the stream closes after the final status. A stream opened after the end
 * replays everything, final event included, at once.
 */
const POLL_MS = 1_000;

type Render = (event: StoredGenerationEvent, row: () => Promise<GenerationRow>, send: SseSend) => Promise<boolean>;

function follow(db: Db, job: GenerationRow, render: Render, signal?: AbortSignal) {
  const id = job.id;
  const release = takeStreamSlot(job.userId);
  return sseResponse(
    async (send, abort) => {
      let seq = 0;
      const row = async () => (await db.select().from(generationRequests).where(eq(generationRequests.id, id)))[0]!;
      for (;;) {
        const batch = await eventsAfter(db, id, seq);
        for (const event of batch) {
          seq = event.seq;
          if (await render(event, row, send)) return;
        }
        if (abort.aborted) return;
        if (batch.length === 0) {
          // Defensive: a job ended without its final event (it never does) still ends the stream.
          const current = await row();
          if (isFinal(current.status) && (await eventsAfter(db, id, seq)).length === 0) return;
          await waitForGenerationNotice(id, POLL_MS, abort);
        }
      }
    },
    { signal, onClose: release },
  );
}

const isFinalStatus = (e: StoredGenerationEvent) => e.kind === "status" && isFinal(e.data.status as GenerationRow["status"]);

/** Gateway `status/stream`: event `status`, data = the status body; with `logs`, the logs so far. */
export function gatewayStatusStream(db: Db, job: GenerationRow, withLogs: boolean, signal?: AbortSignal) {
  const logs: { message: string; timestamp: string }[] = [];
  return follow(
    db,
    job,
    async (event, row, send) => {
      if (event.kind === "log") {
        logs.push(event.data as { message: string; timestamp: string });
        if (withLogs) send("status", statusBody(await row(), [...logs]));
        return false;
      }
      if (event.kind !== "status") return false;
      const current = await row();
      send("status", { ...statusBody(current, withLogs ? [...logs] : undefined), status: event.data.status, ...(event.data.queue_position != null ? { queue_position: event.data.queue_position } : {}) });
      return isFinalStatus(event);
    },
    signal,
  );
}

/** Gateway `progress/stream`: event `progress` `{stage, percent?, message?}`. */
export function gatewayProgressStream(db: Db, job: GenerationRow, signal?: AbortSignal) {
  return follow(
    db,
    job,
    async (event, _row, send) => {
      if (event.kind !== "progress") return false;
      send("progress", event.data);
      return ["completed", "failed", "cancelled"].includes(event.data.stage as string);
    },
    signal,
  );
}

/** Skill stream: `status` `{id, status, queue_position?}`, `log`, then `completed` / `failed` with the GenerationResult. */
export function skillStream(db: Db, job: GenerationRow, signal?: AbortSignal) {
  return follow(
    db,
    job,
    async (event, row, send) => {
      if (event.kind === "log") send("log", event.data);
      if (event.kind !== "status") return false;
      if (isFinalStatus(event)) {
        const current = await row();
        send(current.status === "completed" ? "completed" : "failed", skillResult(current));
        return true;
      }
      send("status", { id: job.id, status: event.data.status, ...(event.data.queue_position != null ? { queue_position: event.data.queue_position } : {}) });
      return false;
    },
    signal,
  );
}
