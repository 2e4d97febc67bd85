import { mkdtemp } from "node:fs/promises";
import path from "node:path";
import { afterAll, inject } from "vitest";
import { closeDb, setDbHandle } from "@/db/client";
import { resetEnv } from "@/lib/env";
import { openFileDatabase } from "./db";

// Per test file: its own data directory (local storage, outbox) and its own database.
process.env.DATA_DIR = await mkdtemp(path.join(inject("testRoot"), "data-"));
delete process.env.DATABASE_URL;
resetEnv();
setDbHandle(await openFileDatabase(inject("runId"), inject("pgliteSnapshot")));

afterAll(async () => {
  await closeDb();
});
