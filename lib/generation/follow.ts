import type { Db } from "@/db/client";
import type { Principal } from "@/lib/auth/principal";
import type { DomainError } from "@/lib/core/errors";
import { endingTopic, eventHub, generationTopic, keyTopic, sessionTopic, userTopic, watch, type EventHub, type Watch } from "./event-hub";
import { EVENTS_PAGE, eventsAfter, type GenerationEventKind, type StoredGenerationEvent } from "./event-log";
import { generationById } from "./store";
import { callerStanding } from "./stream-standing";
import { FINAL_STATUSES, isFinal, type GenerationRow } from "./types";

/**
 * Following a job: the one way anything waits for a job to move (SSE streams, MCP progress, a
 * cancel or a repeat waiting for the ending). The job's event log (generation_events) is the
 * truth; change notices (event-hub.ts: LISTEN/NOTIFY, so a write on any instance wakes every
 * follower) say when to read it, and a follower makes no query between notices. Without notices
 * (LISTEN down) it reads every `pollMs`.
 *
 * With `caller`, the follower also ends when the caller may no longer read the job (its key
 * deleted, disabled or expired, its session ended, its user banned), re-reading its standing when a
 * notice about it comes or when it lapses by itself (every few seconds without notices).
 */
export type FollowOptions = {
  /** Events after this position only (a stream's Last-Event-ID); default: from the start. */
  after?: number;
  /** The kinds of events wanted; default all. */
  kinds?: readonly GenerationEventKind[];
  caller?: Principal;
  /** Stop waiting at this time (ms since epoch). */
  deadlineMs?: number | null;
  signal?: AbortSignal;
  pollMs?: number;
};

export type FollowEnd = { end: "ended" } | { end: "deadline" } | { end: "aborted" } | { end: "refused"; refusal: DomainError };

const POLL_MS = 1_000;
const STANDING_CHECK_MS = 3_000;
const FINAL_STAGES = new Set<unknown>(["completed", "failed", "cancelled"]);

/** Whether an event is the job's ending: its final status, or its final progress stage. */
export const isEnding = (event: StoredGenerationEvent) =>
  (event.kind === "status" && FINAL_STATUSES.includes(event.data.status as GenerationRow["status"])) ||
  (event.kind === "progress" && FINAL_STAGES.has(event.data.stage));

const standingTopics = (p: Principal) => [
  userTopic(p.userId),
  ...(p.apiKeyId ? [keyTopic(p.apiKeyId)] : []),
  ...(p.sessionId ? [sessionTopic(p.sessionId)] : []),
];

/**
 * Yields the job's new events in batches, oldest first, until one of them is its ending (the
 * generator then returns `{end: "ended"}`), or the deadline, the signal or the caller's standing
 * stops it. Listening starts before the first read, so nothing committed in between is missed.
 * The events wanted must include the ending's kind (`status` or `progress`), or the job's ending
 * is seen only by its row (checked when notices are down, and by `untilEnded`).
 */
export async function* follow(db: Db, jobId: string, options: FollowOptions = {}): AsyncGenerator<StoredGenerationEvent[], FollowEnd> {
  const { kinds, caller, deadlineMs = null, signal, pollMs = POLL_MS } = options;
  const hub = await eventHub();
  const jobTopic = generationTopic(jobId);
  const changes = watch(hub, [jobTopic, ...(caller ? standingTopics(caller) : [])]);
  try {
    await hub.ready();
    let seq = options.after ?? 0;
    // The caller was authorized when its request arrived; a change since then (before this
    // follower listened) is caught by one read of its standing now.
    let standingCheckedAt = 0;
    let lapsesAt: number | null = null;
    let standingDue = caller !== undefined;
    let woken = new Set([jobTopic]);
    for (;;) {
      if (woken.has(jobTopic) || !hub.listening) {
        const batch = await eventsAfter(db, jobId, seq, kinds);
        if (batch.length > 0) {
          seq = batch.at(-1)!.seq;
          yield batch;
          if (batch.some(isEnding)) return { end: "ended" };
          // A full page: the rest is already there.
          if (batch.length === EVENTS_PAGE && !signal?.aborted) continue;
        } else if (!hub.listening) {
          // A job whose ending this follower cannot see among its kinds still ends it.
          const row = await generationById(db, jobId);
          if (!row || isFinal(row.status)) return { end: "ended" };
        }
      }
      if (signal?.aborted) return { end: "aborted" };
      if (deadlineMs !== null && Date.now() >= deadlineMs) return { end: "deadline" };
      if (caller) {
        const due =
          standingDue ||
          (hub.listening
            ? [...woken].some((t) => t !== jobTopic) || (lapsesAt !== null && Date.now() >= lapsesAt)
            : Date.now() - standingCheckedAt >= STANDING_CHECK_MS);
        standingDue = false;
        if (due) {
          standingCheckedAt = Date.now();
          const standing = await callerStanding(db, caller);
          if (standing.refusal) return { end: "refused", refusal: standing.refusal };
          lapsesAt = standing.lapsesAt;
        }
      }
      const untilMs = Math.min(deadlineMs ?? Infinity, lapsesAt ?? Infinity);
      woken = await changes.wait({ signal, fallbackMs: pollMs, untilMs: Number.isFinite(untilMs) ? untilMs : null });
    }
  } finally {
    changes.close();
  }
}

/** How often `until` re-reads when change notices are not arriving. */
const UNTIL_POLL_MS = 1_000;

/**
 * Waits until `done(state)` holds, reading the job's state with `read` at the start and after each
 * of its change notices (any event of the job, or with `on: "ending"` only its ending), until
 * `deadlineMs` or until `signal` aborts; answers the state last read. Without notices it re-reads
 * every second. Listening starts before the first read, so nothing committed in between is missed.
 */
export async function until<T>(
  jobId: string,
  read: () => Promise<T>,
  done: (state: T) => boolean,
  { deadlineMs, signal, on = "changes" }: { deadlineMs: number; signal?: AbortSignal; on?: "changes" | "ending" },
): Promise<T> {
  const changes = await watchJob(jobId, { on });
  try {
    for (;;) {
      const state = await read();
      if (done(state) || Date.now() >= deadlineMs || signal?.aborted) return state;
      await changes.wait({ signal, fallbackMs: UNTIL_POLL_MS, untilMs: deadlineMs });
    }
  } finally {
    changes.close();
  }
}

/**
 * Waits until the job ends (on any instance: the ending's notice wakes it, then one read), until
 * `deadlineMs`, or until `signal` aborts; answers the job as it then stands (null if it is gone).
 * It follows only the ending's notices, not every progress event of the job.
 */
export const untilEnded = (db: Db, id: string, options: { deadlineMs: number; signal?: AbortSignal }): Promise<GenerationRow | null> =>
  until(
    id,
    () => generationById(db, id),
    (row) => !row || isFinal(row.status),
    { ...options, on: "ending" },
  );

/**
 * The notices of one job's changes (or only of its ending), listening once this resolves: for a
 * waiter that checks something else between notices (the sync run asks its provider). `hub`
 * defaults to the process's (tests pass their own). Close it when done.
 */
export async function watchJob(jobId: string, { on = "changes", hub }: { on?: "changes" | "ending"; hub?: EventHub } = {}): Promise<Watch> {
  const events = hub ?? (await eventHub());
  const changes = watch(events, [on === "ending" ? endingTopic(jobId) : generationTopic(jobId)]);
  try {
    await events.ready();
  } catch (err) {
    changes.close();
    throw err;
  }
  return changes;
}
