import { mkdirSync, rmSync, writeFileSync } from "node:fs";
import path from "node:path";
import type { PGlite } from "@electric-sql/pglite";
import { PGLiteSocketServer } from "@electric-sql/pglite-socket";
import { env } from "@/lib/core/env";
import { pgliteLockPath, readPgliteLock, type PgliteLock } from "./pglite-lock";

export type PgliteExposure = { port: number; stop: () => Promise<void> };

/** Serves an in-thread PGlite on a loopback Postgres port and writes the lock file naming it. */
export async function exposePglite(client: PGlite, port: number): Promise<PgliteExposure> {
  const server = new PGLiteSocketServer({ db: client, host: "127.0.0.1", port, maxConnections: 16 });
  await server.start();
  return announcePglite(Number(server.getServerConn().split(":").pop()), () => server.stop());
}

/**
 * Writes the lock file naming this process and the port where its PGlite is served (by whatever
 * serves it: the PGlite thread serves its own); `stop` runs after the lock is released.
 */
export function announcePglite(bound: number, stopServer: () => Promise<void>): PgliteExposure {
  const lockFile = pgliteLockPath(env().DATA_DIR);
  mkdirSync(path.dirname(lockFile), { recursive: true });
  writeFileSync(lockFile, JSON.stringify({ pid: process.pid, port: bound } satisfies PgliteLock));
  const release = () => {
    if (readPgliteLock(env().DATA_DIR)?.pid === process.pid) rmSync(lockFile, { force: true });
  };
  process.once("exit", release);
  return {
    port: bound,
    stop: async () => {
      release();
      await stopServer();
    },
  };
}
