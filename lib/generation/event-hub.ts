import type { PGlite } from "@electric-sql/pglite";
import type postgres from "postgres";
import { getDbHandle, type Db, type DbHandle } from "@/db/client";
import { log } from "@/lib/core/logger";
import { processWide } from "@/lib/core/process-wide";

/**
 * Change notices, fanned out across instances by the database: one LISTEN connection per process
 * (per database handle) on the `gateway_changes` channel, and an in-process hub that hands each
 * notice to whoever follows its topic. Triggers (drizzle/0009_change-notices.sql) NOTIFY the
 * channel, and PostgreSQL delivers a notice when its transaction commits, to every listening
 * instance; PGlite does the same for the embedded default, so both run this one path.
 *
 * Topics (the notices' payloads): `g:<generation id>` — rows were added to that job's event log;
 * `e:<generation id>` — those rows hold the job's final status (drizzle/0010_ending-notices.sql);
 * `k:<api key id>`, `u:<user id>`, `s:<session id>` — a caller's standing may have changed (key
 * disabled, deleted or its expiry moved; user banned or deleted; session ended).
 *
 * An open stream waits on its topics and makes no query until a notice comes. If the listening
 * connection drops, every follower is woken once it is back (notices sent meanwhile are lost, so
 * each re-reads once); until it is back, and if LISTEN cannot start at all, `listening` is false
 * and followers fall back to polling.
 */
export const CHANGES_CHANNEL = "gateway_changes";

export const generationTopic = (id: string) => `g:${id}`;
/** The job ended: what a sync run waiting on its provider follows (not its own progress). */
export const endingTopic = (id: string) => `e:${id}`;
export const keyTopic = (id: string) => `k:${id}`;
export const userTopic = (id: string) => `u:${id}`;
export const sessionTopic = (id: string) => `s:${id}`;

type Follower = (topic: string) => void;

export type EventHub = {
  /** True while notices arrive: followers need not poll. */
  readonly listening: boolean;
  /** Resolves once LISTEN is in place (or could not be): reads after it miss no notice. */
  ready(): Promise<void>;
  /** Calls `fn` with the topic of each notice for one of `topics`, until the returned release. */
  follow(topics: readonly string[], fn: Follower): () => void;
  /** Hands a notice to this process's followers (what the LISTEN connection does for each notice). */
  deliver(topic: string): void;
};

const RETRY_MS = 5_000;

function createHub(handle: DbHandle): EventHub {
  const followers = new Map<string, Set<Follower>>();
  let listening = false;
  let starting: Promise<void> | null = null;
  let failedAt = 0;

  const deliver = (topic: string) => {
    const set = followers.get(topic);
    if (!set) return;
    for (const fn of [...set]) fn(topic);
  };
  const wakeAll = () => {
    for (const [topic, set] of followers) for (const fn of [...set]) fn(topic);
  };

  const start = async () => {
    try {
      const client = (handle.db as unknown as { $client: unknown }).$client;
      if (handle.kind === "pglite") {
        await (client as PGlite).listen(CHANGES_CHANNEL, deliver);
      } else {
        let connected = false;
        // postgres-js keeps one dedicated connection for its listens and re-LISTENs after a drop,
        // calling `onlisten` each time: after a reconnect, notices may have been missed.
        await (client as postgres.Sql).listen(CHANGES_CHANNEL, deliver, () => {
          if (connected) wakeAll();
          connected = true;
          listening = true;
        });
      }
      listening = true;
    } catch (error) {
      failedAt = Date.now();
      log.warn("change notices unavailable; event streams poll the database", { error: String(error) });
    }
  };

  const ready = () => {
    if (listening) return Promise.resolve();
    if (!starting || (failedAt && Date.now() - failedAt > RETRY_MS)) {
      failedAt = 0;
      starting = start();
    }
    return starting;
  };

  return {
    get listening() {
      return listening;
    },
    ready,
    deliver,
    follow(topics, fn) {
      void ready();
      for (const t of topics) {
        let set = followers.get(t);
        if (!set) followers.set(t, (set = new Set()));
        set.add(fn);
      }
      let released = false;
      return () => {
        if (released) return;
        released = true;
        for (const t of topics) {
          const set = followers.get(t);
          set?.delete(fn);
          if (set?.size === 0) followers.delete(t);
        }
      };
    },
  };
}

// One hub per database handle, shared by every server chunk (lib/core/process-wide.ts); tests that
// swap the handle get a hub of their own.
const hubs = processWide("generation.event-hubs", () => new WeakMap<Db, EventHub>());

export function hubOf(handle: DbHandle): EventHub {
  let hub = hubs.get(handle.db);
  if (!hub) hubs.set(handle.db, (hub = createHub(handle)));
  return hub;
}

export async function eventHub(): Promise<EventHub> {
  return hubOf(await getDbHandle());
}

/**
 * What one stream follows: notices on its topics set a flag, so a notice that comes while the
 * stream is busy (reading, rendering) is not lost; `wait` returns at once if one came since the
 * last `wait`, else at the next notice, after `fallbackMs` when the hub is not listening (or
 * `untilMs`, a time the caller must act by), or when `signal` aborts.
 */
export type Watch = {
  wait(o: { signal?: AbortSignal; fallbackMs: number; untilMs?: number | null }): Promise<Set<string>>;
  close(): void;
};

export function watch(hub: EventHub, topics: readonly string[]): Watch {
  let woken = new Set<string>();
  let resume: (() => void) | null = null;
  const release = hub.follow(topics, (topic) => {
    woken.add(topic);
    resume?.();
  });
  return {
    close: release,
    wait({ signal, fallbackMs, untilMs }) {
      return new Promise((resolve) => {
        let timer: ReturnType<typeof setTimeout> | undefined;
        const done = () => {
          clearTimeout(timer);
          signal?.removeEventListener("abort", done);
          resume = null;
          const topics = woken;
          woken = new Set();
          resolve(topics);
        };
        if (woken.size > 0 || signal?.aborted) return done();
        resume = done;
        signal?.addEventListener("abort", done, { once: true });
        const limits = [hub.listening ? Infinity : fallbackMs, untilMs == null ? Infinity : untilMs - Date.now()];
        const ms = Math.min(...limits);
        // setTimeout holds at most 2^31 − 1 ms; a later deadline is re-checked by the caller.
        if (Number.isFinite(ms)) timer = setTimeout(done, Math.max(0, Math.min(ms, 2 ** 31 - 1)));
      });
    },
  };
}
