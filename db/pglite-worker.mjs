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
import { createServer } from "node:net";
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

/**
 * Holds PGlite's transaction lock (the one every `query` and `transaction` takes) until the
 * returned release is called: what a served connection holds through a statement's messages and
 * through a transaction of its own, so nothing else runs inside them.
 * @returns {Promise<() => void>}
 */
const acquire = () =>
  new Promise((acquired) => {
    void pg._runExclusiveTransaction(() => new Promise((release) => acquired(() => release(undefined))));
  });

/** @type {Set<import("node:net").Socket>} */
const sockets = new Set();
const SSL_REQUEST = 80877103;
const GSSENC_REQUEST = 80877104;
const CANCEL_REQUEST = 80877102;
/** A simple-protocol ROLLBACK, for a connection that closed inside its transaction. */
const ROLLBACK_MESSAGE = (() => {
  const text = Buffer.from("ROLLBACK\0");
  const m = Buffer.alloc(5 + text.length);
  m.write("Q", 0);
  m.writeInt32BE(4 + text.length, 1);
  text.copy(m, 5);
  return m;
})();

/**
 * One connection to the served database. PGlite is one session: `@electric-sql/pglite-socket`
 * interleaves connections message by message, so another connection's statement (or the
 * server's own) could land between a Parse and its Bind, or inside a transaction. Here a
 * connection takes the lock at its first message and keeps it until a Sync or simple query
 * leaves no transaction open.
 * @param {import("node:net").Socket} socket
 */
function serve(socket) {
  sockets.add(socket);
  socket.setNoDelay(true);
  let buffer = Buffer.alloc(0);
  let started = false;
  /** @type {(() => void) | null} */
  let release = null;
  let chain = Promise.resolve();
  const write = (/** @type {Uint8Array} */ data) => {
    if (data.length && socket.writable) socket.write(Buffer.from(data));
  };
  const run = async (/** @type {Uint8Array} */ message) => {
    release ??= await acquire();
    await pg.runExclusive(() => pg.execProtocolRawStream(message, { onRawData: write }));
  };
  /** @param {{ kind: "startup" | "ssl" | "cancel" | "message"; type?: string; bytes: Buffer }} m */
  const handle = async (m) => {
    if (m.kind === "ssl") return void socket.write("N");
    if (m.kind === "cancel") return void socket.end();
    if (m.type === "X") return void socket.end();
    await run(m.bytes);
    if ((m.kind === "startup" || m.type === "S" || m.type === "Q") && release && !pg.isInTransaction()) {
      release();
      release = null;
    }
  };
  const close = async () => {
    if (!release) return;
    if (pg.isInTransaction()) await pg.runExclusive(() => pg.execProtocolRawStream(ROLLBACK_MESSAGE, { onRawData: () => {} }));
    release();
    release = null;
  };
  socket.on("data", (data) => {
    buffer = Buffer.concat([buffer, data]);
    for (;;) {
      /** @type {{ kind: "startup" | "ssl" | "cancel" | "message"; type?: string; bytes: Buffer } | null} */
      let m = null;
      if (!started) {
        if (buffer.length < 8) break;
        const length = buffer.readInt32BE(0);
        if (buffer.length < length) break;
        const code = buffer.readInt32BE(4);
        const kind = code === SSL_REQUEST || code === GSSENC_REQUEST ? "ssl" : code === CANCEL_REQUEST ? "cancel" : "startup";
        if (kind === "startup") started = true;
        m = { kind, bytes: buffer.subarray(0, length) };
        buffer = buffer.subarray(length);
      } else {
        if (buffer.length < 5) break;
        const length = 1 + buffer.readInt32BE(1);
        if (buffer.length < length) break;
        m = { kind: "message", type: String.fromCharCode(buffer[0] ?? 0), bytes: buffer.subarray(0, length) };
        buffer = buffer.subarray(length);
      }
      const message = m;
      chain = chain.then(() => handle(message)).catch(() => socket.destroy());
    }
  });
  socket.on("error", () => socket.destroy());
  socket.on("close", () => {
    sockets.delete(socket);
    chain = chain.then(close, close);
  });
}

/** Serves this PGlite on a loopback Postgres port, for CLI scripts, drizzle-kit and psql. */
async function expose(/** @type {number} */ wanted) {
  const server = createServer(serve);
  server.maxConnections = 16;
  await new Promise((resolve, reject) => {
    server.once("error", reject);
    server.listen(wanted, "127.0.0.1", () => resolve(undefined));
  });
  const address = /** @type {import("node:net").AddressInfo} */ (server.address());
  exposure = {
    port: address.port,
    stop: () =>
      new Promise((resolve) => {
        server.close(() => resolve(undefined));
        for (const socket of sockets) socket.destroy();
      }),
  };
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
