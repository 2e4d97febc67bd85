// @ts-check
/**
 * The embedded PGlite, on a thread of its own (db/pglite-thread.ts starts it and speaks for it).
 * PGlite runs Postgres compiled to WebAssembly synchronously: on the server's thread every query
 * stalled every request (docs/database.md, "The embedded database's thread"). Plain JavaScript,
 * loaded from the repository at run time, so no bundler has to know about it.
 *
 * Messages in: { id, op: "query", sql, params, rowMode, raw, tx? } | { id, op: "exec", sql, tx? }
 * | { id, op: "begin" } | { id, op: "end", tx, commit } | { id, op: "listen", channel }
 * | { id, op: "expose", port } | { id, op: "close" }. Each is answered { id, result } or
 * { id, error }; a notice on a listened channel is sent as { notice: channel, payload }.
 */
import { parentPort, workerData } from "node:worker_threads";
import { readFile } from "node:fs/promises";
import { PGlite } from "@electric-sql/pglite";

if (!parentPort) throw new Error("db/pglite-worker.mjs runs as a worker thread");
const port = parentPort;

/** @type {{ dataDir?: string; loadDataDir?: string }} */
const options = workerData ?? {};
const pg = await PGlite.create({
  ...(options.dataDir ? { dataDir: options.dataDir } : {}),
  ...(options.loadDataDir ? { loadDataDir: new Blob([await readFile(options.loadDataDir)]) } : {}),
});

/** @param {unknown} error */
function plainError(error) {
  if (!(error instanceof Error)) return { message: String(error) };
  // Own fields (code, detail, constraint, …) are what callers test; the class does not cross
  // threads, and neither may a field that cannot be copied (the query's parameters stay here).
  const fields = Object.entries(error).filter(([, v]) => v === null || ["string", "number", "boolean"].includes(typeof v));
  return { ...Object.fromEntries(fields), name: error.name, message: error.message, stack: error.stack };
}

/** @param {number} id @param {Promise<unknown>} work */
function answer(id, work) {
  work.then(
    (result) => port.postMessage({ id, result }),
    (error) => port.postMessage({ id, error: plainError(error) }),
  );
}

/** Parsers that hand values through as text, for the types the caller asked to keep raw. */
const keepRaw = (/** @type {number[] | undefined} */ oids) =>
  oids?.length ? Object.fromEntries(oids.map((oid) => [oid, (/** @type {string} */ v) => v])) : undefined;

/**
 * Open transactions: each runs inside PGlite's `transaction`, fed its statements one message at a
 * time until the caller ends it. While one is open PGlite runs nothing else, as on the server's thread.
 * @type {Map<number, { run: (m: any) => void; end: (m: any) => void }>}
 */
const transactions = new Map();
const ROLLBACK = Symbol("rollback");

/** @param {any} m @param {import("@electric-sql/pglite").Transaction | PGlite} on */
function statement(m, on) {
  if (m.op === "exec") return on.exec(m.sql);
  return on.query(m.sql, m.params ?? [], { rowMode: m.rowMode ?? "object", parsers: keepRaw(m.raw) });
}

/** @param {any} m */
function begin(m) {
  let begun = false;
  /** @type {number | undefined} */
  let endId;
  pg.transaction(async (tx) => {
    begun = true;
    const ended = new Promise((resolve, reject) => {
      transactions.set(m.id, {
        run: (q) => answer(q.id, statement(q, tx)),
        end: (e) => {
          endId = e.id;
          if (e.commit) resolve(undefined);
          else reject(ROLLBACK);
        },
      });
    });
    port.postMessage({ id: m.id, result: null });
    await ended;
  })
    .then(
      () => endId !== undefined && port.postMessage({ id: endId, result: null }),
      (error) => {
        if (!begun) port.postMessage({ id: m.id, error: plainError(error) });
        else if (endId !== undefined)
          port.postMessage(error === ROLLBACK ? { id: endId, result: null } : { id: endId, error: plainError(error) });
      },
    )
    .finally(() => transactions.delete(m.id));
}

/** @type {{ port: number; stop: () => Promise<void> } | undefined} */
let exposure;

/** Serves this PGlite on a loopback Postgres port, for CLI scripts, drizzle-kit and psql. */
async function expose(/** @type {number} */ wanted) {
  const { PGLiteSocketServer } = await import("@electric-sql/pglite-socket");
  const server = new PGLiteSocketServer({ db: pg, host: "127.0.0.1", port: wanted, maxConnections: 16 });
  await server.start();
  exposure = { port: Number(server.getServerConn().split(":").pop()), stop: () => server.stop() };
  return exposure.port;
}

port.on("message", (/** @type {any} */ m) => {
  switch (m.op) {
    case "query":
    case "exec": {
      const tx = m.tx === undefined ? undefined : transactions.get(m.tx);
      if (m.tx !== undefined && !tx) answer(m.id, Promise.reject(new Error("the transaction has ended")));
      else if (tx) tx.run(m);
      else answer(m.id, statement(m, pg));
      return;
    }
    case "begin":
      return begin(m);
    case "end": {
      const tx = transactions.get(m.tx);
      if (tx) tx.end(m);
      else answer(m.id, Promise.reject(new Error("the transaction has ended")));
      return;
    }
    case "listen":
      return answer(
        m.id,
        pg.listen(m.channel, (payload) => port.postMessage({ notice: m.channel, payload })).then(() => null),
      );
    case "expose":
      return answer(m.id, expose(m.port));
    case "close":
      return answer(
        m.id,
        (async () => {
          await exposure?.stop();
          await pg.close();
          return null;
        })(),
      );
  }
});

port.postMessage({ ready: true });
