import type { Db } from "@/db/client";
import { endingTopic, eventHub, watch } from "./event-hub";
import { generationById } from "./store";
import { isFinal, type GenerationRow } from "./types";

/** How often a wait re-reads the job when change notices are not arriving (LISTEN down). */
const FALLBACK_MS = 1_000;

/**
 * Waits until the job ends (on any instance: the ending's notice wakes it, then one read), until
 * `deadlineMs`, or until `signal` aborts; answers the job as it then stands (null if it is gone).
 * Listening starts before the first read, so an ending committed in between is not missed.
 */
export async function untilEnded(
  db: Db,
  id: string,
  { deadlineMs, signal }: { deadlineMs: number; signal?: AbortSignal },
): Promise<GenerationRow | null> {
  const hub = await eventHub();
  const changes = watch(hub, [endingTopic(id)]);
  try {
    await hub.ready();
    for (;;) {
      const row = await generationById(db, id);
      if (!row || isFinal(row.status) || Date.now() >= deadlineMs || signal?.aborted) return row;
      await changes.wait({ signal, fallbackMs: FALLBACK_MS, untilMs: deadlineMs });
    }
  } finally {
    changes.close();
  }
}
