import { processWide } from "@/lib/core/process-wide";

/**
 * Work a sender starts in-process right after sending an event, ahead of the run that event
 * starts: the queue request's provider submit, which the run's first step does itself if it finds
 * it undone (lib/generation/dispatch.ts). The run stays the durable owner; this is only the cheap
 * path. The test executor's drain() waits for it as for runs in flight, so a test sees its writes.
 */
const inflight = processWide("jobs:ahead-of-runs", () => new Set<Promise<void>>());

/** Tracks `work` (its failures are the caller's to handle: a rejection here is dropped). */
export function aheadOfRun(work: Promise<void>): void {
  const tracked = work.catch(() => undefined);
  inflight.add(tracked);
  void tracked.finally(() => inflight.delete(tracked));
}

/** Resolves once no such work is under way. */
export async function settleAheadOfRuns(): Promise<void> {
  while (inflight.size) await Promise.allSettled([...inflight]);
}
