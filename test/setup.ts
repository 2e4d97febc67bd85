import { mkdtemp } from "node:fs/promises";
import path from "node:path";
import { afterAll, inject } from "vitest";
import { closeDb, setDbHandle } from "@/db/client";
import { installDebitFollowUps } from "@/lib/billing/payments/after-debit";
import { installCatalogSeed } from "@/lib/catalog/seed";
import { resetEnv } from "@/lib/core/env";
import { provideJobFunctions } from "@/lib/jobs/functions";
import { registerSimulators } from "@/simulators/register";
import { openFileDatabase } from "./db";

// Per test file: its own data directory (local storage, outbox) and its own database.
process.env.DATA_DIR = await mkdtemp(path.join(inject("testRoot"), "data-"));
delete process.env.DATABASE_URL;
// Links default to the listening address (lib/core/env.ts defaultAppUrl): tests expect localhost:3000
// whatever the shell exports (a container's HOSTNAME is its id).
delete process.env.HOSTNAME;
delete process.env.PORT;
resetEnv();
setDbHandle(await openFileDatabase(inject("runId"), inject("pgliteSnapshot")));
// As instrumentation.ts and lib/server/start.ts do at start-up: the simulators are registered (the
// local generation and payment providers), the ledger's debits reach the payments follow-ups, and a
// database opened by a test (a fresh data directory) gets the catalog's seed.
registerSimulators();
installDebitFollowUps();
installCatalogSeed();
provideJobFunctions(async () => (await import("@/inngest/functions")).functions);

afterAll(async () => {
  await closeDb();
});
