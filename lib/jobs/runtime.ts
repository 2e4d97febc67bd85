import { EventEmitter } from "node:events";
import { drizzle } from "drizzle-orm/postgres-js";
import postgres from "postgres";
import { getDb, type Db } from "@/db/client";
import * as schema from "@/db/schema";
import { env } from "@/lib/core/env";
import { log } from "@/lib/core/logger";
import { inngest } from "./client";
import { installEventSink, type EventSink } from "./event-sink";
import { JobExecutor, type ExecutorOptions } from "./executor";
import { jobsMode } from "./mode";
import { handlerTransport } from "./protocol";
import { jobFunctions } from "./functions";
import { serveJobs } from "./serve";
import type { FinishedRun } from "./store";

/**
 * The process's embedded executor: started once from lib/server/start.ts when no Inngest server
 * is configured (guarded against dev hot reloads), or installed by tests (lib/jobs/testing.ts).
 */
type Runtime = { executor?: JobExecutor; starting?: Promise<JobExecutor>; uninstall?: () => void };
const g = globalThis as unknown as { __gwJobsRuntime?: Runtime; __gwJobsRunEvents?: EventEmitter };
const runtime = (g.__gwJobsRuntime ??= {});

/** `finished` with each run's result when it ends in this process (the waiters listen). */
export const runEvents: EventEmitter = (g.__gwJobsRunEvents ??= new EventEmitter().setMaxListeners(0));

export function notifyFinished(runs: FinishedRun[]): void {
  for (const run of runs) runEvents.emit("finished", run);
}

/** Makes `executor` the one `inngest.send()` reaches in this process. */
export function installExecutor(executor: JobExecutor): () => void {
  runtime.uninstall?.();
  const uninstall = installEventSink((events) => executor.send(events));
  runtime.executor = executor;
  runtime.uninstall = () => {
    uninstall();
    if (runtime.executor === executor) runtime.executor = undefined;
  };
  return runtime.uninstall;
}

export function currentExecutor(): JobExecutor | undefined {
  return runtime.executor;
}

/**
 * On PostgreSQL, the executor's bookkeeping goes through its own small pool with
 * `synchronous_commit = off`: a crash losing its last writes only resumes a run a step earlier
 * (docs/jobs.md). PGlite has one connection: the process db.
 */
export function bookkeepingDb(url = env().DATABASE_URL): (() => Promise<Db>) | undefined {
  if (!url) return undefined;
  const client = postgres(url, {
    max: 5,
    onnotice: () => {},
    connection: { application_name: "gw-jobs", synchronous_commit: "off" },
  });
  const db = drizzle(client, { schema });
  return async () => db;
}

/** Options for an executor over the app's own functions, driven in-process. */
export async function embeddedExecutorOptions(overrides: Partial<ExecutorOptions> = {}): Promise<ExecutorOptions> {
  const signingKey = inngest.signingKey;
  if (!signingKey) throw new Error("the embedded Inngest client has no signing key");
  const bookkeeping = bookkeepingDb();
  return {
    transport: handlerTransport(serveJobs(await jobFunctions()), signingKey),
    ...(bookkeeping ? { db: bookkeeping, eventsDb: getDb } : {}),
    concurrency: env().JOBS_CONCURRENCY,
    pollIntervalMs: env().JOBS_POLL_INTERVAL_MS,
    onFinished: notifyFinished,
    ...overrides,
  };
}

/** Starts the embedded executor for this process (idempotent). */
export function startEmbeddedJobs(): Promise<JobExecutor> {
  if (jobsMode().kind !== "embedded") return Promise.reject(new Error("an Inngest server is configured; nothing to start"));
  runtime.starting ??= (async () => {
    const executor = await JobExecutor.create(await embeddedExecutorOptions());
    installExecutor(executor);
    executor.start();
    log.info("embedded job executor started", { functions: [...executor.registry.functions.keys()] });
    return executor;
  })().catch((err) => {
    runtime.starting = undefined;
    throw err;
  });
  return runtime.starting;
}

/** Where an embedded send goes when no executor was installed yet: start the process's one. */
export async function defaultEventSink(): Promise<EventSink> {
  if (process.env.NODE_ENV === "test") {
    throw new Error("no job executor is installed: start one with startTestExecutor() from lib/jobs/testing.ts");
  }
  const executor = await startEmbeddedJobs();
  return (events) => executor.send(events);
}
