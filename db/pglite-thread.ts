import path from "node:path";
import { Worker } from "node:worker_threads";
import type { PGlite, Results, Transaction } from "@electric-sql/pglite";

/**
 * The embedded PGlite on its own thread (db/pglite-worker.mjs), seen from the server's thread as
 * the part of PGlite's client that drizzle's PGlite driver and the change-notice hub use: `query`,
 * `exec`, `transaction` and `listen`. A statement costs the server a message each way instead of
 * the whole of its execution, so requests keep being served while PGlite works (why and what it
 * measured: docs/database.md, "The embedded database's thread").
 *
 * The same rules as PGlite in-thread: one session, so a transaction holds every other statement
 * until it ends, and inside `db.transaction(tx => …)` only `tx` may be used.
 */
export type PgliteThread = {
  /** What drizzle is given in place of a PGlite client (the subset above, typed as the client). */
  client: PGlite;
  /** Serves the database on a loopback Postgres port (0: any free one); resolves to the port. */
  expose: (port: number) => Promise<number>;
  close: () => Promise<void>;
};

type Sent = { op: string; tx?: number } & Record<string, unknown>;
type Answer = { id: number; result?: unknown; error?: Record<string, unknown> };

/** Where the worker's script is: the repository's, as for the migrations (db/migrate.ts). */
export const pgliteWorkerPath = () => path.join(process.cwd(), "db", "pglite-worker.mjs");

/** An error from the worker as the caller would have met it in-thread: a message, its fields (`code`…). */
function rebuilt(fields: Record<string, unknown>): Error {
  const error = new Error(String(fields.message));
  Object.assign(error, fields);
  return error;
}

/**
 * Opens PGlite on a worker thread: on `dataDir` (created by PGlite if new), or in memory from a
 * `dumpDataDir` tarball at `loadDataDir` (the tests' snapshot).
 */
export async function openPgliteThread(options: { dataDir?: string; loadDataDir?: string }): Promise<PgliteThread> {
  const worker = new Worker(pgliteWorkerPath(), { workerData: options });
  const pending = new Map<number, { resolve: (v: unknown) => void; reject: (e: Error) => void }>();
  const listeners = new Map<string, Set<(payload: string) => void>>();
  let nextId = 1;
  let failure: Error | undefined;

  const failAll = (error: Error) => {
    failure ??= error;
    for (const p of pending.values()) p.reject(error);
    pending.clear();
  };
  await new Promise<void>((resolve, reject) => {
    const early = (code: number) => reject(new Error(`the PGlite thread exited (${code}) before it was ready`));
    worker.once("error", reject);
    worker.once("exit", early);
    worker.once("message", () => {
      worker.off("error", reject);
      worker.off("exit", early);
      resolve();
    });
  });
  worker.on("message", (m: Answer | { notice: string; payload: string }) => {
    if ("notice" in m) {
      for (const fn of listeners.get(m.notice) ?? []) fn(m.payload);
      return;
    }
    const p = pending.get(m.id);
    if (!p) return;
    pending.delete(m.id);
    if (m.error) p.reject(rebuilt(m.error));
    else p.resolve(m.result);
  });
  worker.on("error", (error) => failAll(error));
  worker.on("exit", (code) => failAll(new Error(`the PGlite thread exited (${code})`)));

  /** Posts a message; its id names it (a transaction is named by the id of its "begin"). */
  const request = <T>(message: Sent): { id: number; answer: Promise<T> } => {
    const id = nextId++;
    if (failure) return { id, answer: Promise.reject(failure) };
    const answer = new Promise<T>((resolve, reject) => {
      pending.set(id, { resolve: resolve as (v: unknown) => void, reject });
    });
    worker.postMessage({ ...message, id });
    return { id, answer };
  };
  const send = <T>(message: Sent): Promise<T> => request<T>(message).answer;

  type QueryOptions = { rowMode?: "array" | "object"; parsers?: Record<number, unknown> };
  const scope = (tx?: number) => ({
    query: <T>(sql: string, params?: unknown[], options?: QueryOptions) =>
      send<Results<T>>({
        op: "query",
        sql,
        params: params ?? [],
        rowMode: options?.rowMode,
        // drizzle's parsers hand these types through as text; functions cannot cross, their types can.
        raw: options?.parsers ? Object.keys(options.parsers).map(Number) : undefined,
        tx,
      }),
    exec: (sql: string) => send<Results[]>({ op: "exec", sql, tx }),
  });

  const client = {
    ...scope(),
    async transaction<T>(fn: (tx: Transaction) => Promise<T>): Promise<T> {
      const begin = request({ op: "begin" });
      await begin.answer;
      const id = begin.id;
      let closed = false;
      // drizzle ends a transaction by the callback's outcome (its `tx.rollback()` throws), never by PGlite's own rollback.
      const tx = {
        ...scope(id),
        get closed() {
          return closed;
        },
      } as unknown as Transaction;
      let result: T;
      try {
        result = await fn(tx);
      } catch (error) {
        closed = true;
        await send({ op: "end", tx: id, commit: false }).catch(() => {});
        throw error;
      }
      closed = true;
      await send({ op: "end", tx: id, commit: true });
      return result;
    },
    async listen(channel: string, fn: (payload: string) => void) {
      let set = listeners.get(channel);
      if (!set) {
        listeners.set(channel, (set = new Set()));
        await send({ op: "listen", channel });
      }
      set.add(fn);
      return async () => {
        set.delete(fn);
      };
    },
  };

  return {
    client: client as unknown as PGlite,
    expose: (port) => send<number>({ op: "expose", port }),
    close: async () => {
      if (failure) return;
      // PGlite closes its files first; the thread then has nothing left to do.
      await send({ op: "close" });
      failure = new Error("the PGlite thread is closed");
      await worker.terminate();
    },
  };
}
