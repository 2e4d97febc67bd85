import { access, constants } from "node:fs/promises";
import path from "node:path";
import { sql } from "drizzle-orm";
import { getDb, type Db } from "@/db/client";
import { env } from "@/lib/core/env";
import { jobsMode } from "@/lib/jobs/mode";
import { currentExecutor } from "@/lib/jobs/runtime";
import { log } from "@/lib/core/logger";
import { processWide } from "@/lib/core/process-wide";
import { breakerSnapshots } from "@/lib/provider/circuit-breaker";
import { cooldownSnapshots } from "@/lib/provider/cooldown";
import { isSettled, settling, valueOf, type Settling } from "@/lib/core/settling";
import { currentStorage, storageFailure, storageState } from "@/lib/storage";
import { lastOutcome } from "../observability/outcomes";
import { withTimeout } from "../observability/timeout";

/** `disabled`: switched off on purpose (STORAGE_DRIVER=disabled); not a fault. */
export type PartStatus = "ok" | "down" | "disabled";
export type Part = { status: PartStatus; reason?: string } & Record<string, unknown>;

const CHECK_TIMEOUT_MS = 2000;
/** A storage probe is remembered this long, so frequent /health polling costs no I/O. */
const STORAGE_PROBE_TTL_MS = 10_000;
/**
 * A probe that has not answered by then is a failure (a hung mount, a black-holed endpoint). Far
 * longer than CHECK_TIMEOUT_MS: under load a healthy disk or S3 can take seconds to answer.
 */
const STORAGE_PROBE_DEADLINE_MS = 15_000;
/** A failed call to the payment provider marks it down for this long, or until a call succeeds. */
const PAYMENT_FAILURE_WINDOW_MS = 5 * 60_000;

/**
 * GET /health: each part of the service and the whole. `status` is `degraded` when any part is
 * down; `db` and the answer's HTTP status follow the database alone (503 when it is down, else 200,
 * degraded or not: the service still answers what does not need the part that is down). Every
 * check is bounded by a timeout and only the database is asked each time: the others are read from
 * memory (the breakers, the executor, the payment provider's last call) or a probe a few seconds
 * old. Parts name states and fixed reasons only, never an error's text: the endpoint is public.
 */
/** Health with the app's own database, or with none when it cannot be opened (the /status page). */
export const currentHealth = () =>
  getDb()
    .catch(() => null)
    .then(checkHealth);

export async function checkHealth(db: Db | null) {
  const [database, storage] = await Promise.all([databasePart(db), storagePart()]);
  const parts = { database, storage, jobs: safely(jobsPart), providers: safely(providersPart), payments: safely(paymentsPart) };
  const down = Object.values(parts).some((part) => part.status === "down");
  return {
    status: down ? ("degraded" as const) : ("ok" as const),
    db: database.status === "ok" ? ("ok" as const) : ("down" as const),
    /** Seconds since the process started (not since the first /health call). */
    uptime: Math.floor(process.uptime()),
    timestamp: new Date().toISOString(),
    parts,
  };
}

function safely(check: () => Part): Part {
  try {
    return check();
  } catch (error) {
    log.warn("health check failed", { error });
    return { status: "down", reason: "check_failed" };
  }
}

/** One real round trip. */
async function databasePart(db: Db | null): Promise<Part> {
  if (!db) return { status: "down", reason: "unavailable" };
  return withTimeout(db.execute(sql`select 1`), CHECK_TIMEOUT_MS, "database ping timed out").then(
    () => ({ status: "ok" }),
    () => ({ status: "down", reason: "unreachable" }),
  );
}

type StorageProbe = { target: string; at: number; run: Settling<Part>; previous: Part | null };
const probes = processWide("health-storage-probe", () => ({ current: undefined as StorageProbe | undefined }));

/** Tests: forget the last storage probe, so the next /health probes again. */
export const forgetStorageProbe = (): void => {
  probes.current = undefined;
};

/**
 * The storage's own operations remember their last failure until one succeeds (lib/storage/failures.ts),
 * so a full disk or a refused secret shows here even where the probe cannot see it; the probe finds
 * an unreachable or refusing store before a user does, and its success (S3) ends a past failure.
 */
async function storagePart(): Promise<Part> {
  const state = storageState();
  if (state.driver === "disabled") {
    return env().STORAGE_DRIVER === "disabled"
      ? { status: "disabled", driver: "disabled" }
      : { status: "down", driver: "s3", reason: "not_configured" };
  }
  const failed = storageFailure();
  // A HEAD cannot tell a missing bucket from a missing object (both 404): only a real operation ends that failure.
  const probed = failed?.kind === "bucket_missing" ? undefined : await probedStorage(state.driver);
  const failure = storageFailure();
  if (failure) return { status: "down", driver: state.driver, reason: failure.kind, since: failure.since };
  return probed ?? { status: "ok", driver: state.driver };
}

/**
 * The probe's answer, at most STORAGE_PROBE_TTL_MS old. /health waits for a running probe no
 * longer than its other checks; one that has not answered by then is slow, not failed (a loaded
 * machine at start-up): the answer is the previous probe's, or `ok` with `probe: "pending"` before
 * the first. Only a probe that fails, or has no answer within STORAGE_PROBE_DEADLINE_MS, is down.
 */
async function probedStorage(driver: "local" | "s3"): Promise<Part> {
  const target = driver === "local" ? path.resolve(env().DATA_DIR) : `${env().S3_ENDPOINT ?? ""} ${env().S3_BUCKET}`;
  const now = Date.now();
  let probe = probes.current;
  if (!probe || probe.target !== target) {
    probe = probes.current = { target, at: now, run: settling(probeStorage(driver)), previous: null };
  } else if (isSettled(probe.run) && now - probe.at > STORAGE_PROBE_TTL_MS) {
    probe = probes.current = { target, at: now, run: settling(probeStorage(driver)), previous: probe.run.value! };
  }
  if (isSettled(probe.run)) return probe.run.value!;
  const answer = await withTimeout(valueOf(probe.run), CHECK_TIMEOUT_MS, "storage probe is slow").catch(() => null);
  return answer ?? probe.previous ?? { status: "ok", driver, probe: "pending" };
}

/** Local: the data directory is writable. S3: a HEAD of an object answers (404 is an answer). Never rejects. */
async function probeStorage(driver: "local" | "s3"): Promise<Part> {
  try {
    const check = driver === "local" ? writable(path.resolve(env().DATA_DIR)) : headProbe();
    await withTimeout(check, STORAGE_PROBE_DEADLINE_MS, "storage probe timed out");
    return { status: "ok", driver };
  } catch (error) {
    log.warn("storage probe failed", { driver, error });
    return { status: "down", driver, reason: "unreachable" };
  }
}

async function headProbe(): Promise<void> {
  await currentStorage()?.head("health/probe");
}

/** `dir`, or where it will be made (the first stored file creates DATA_DIR/assets), is writable. */
async function writable(dir: string): Promise<void> {
  for (let at = path.join(dir, "assets"); ; at = path.dirname(at)) {
    try {
      await access(/*turbopackIgnore: true*/ at, constants.W_OK);
      return;
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== "ENOENT" || at === path.dirname(at)) throw err;
    }
  }
}

/** The embedded executor is running, or an Inngest server is configured (it calls us). */
function jobsPart(): Part {
  const mode = jobsMode();
  if (mode.kind === "server") return { status: "ok", mode: mode.dev ? "inngest-dev" : "inngest" };
  return currentExecutor()?.running ? { status: "ok", mode: "embedded" } : { status: "down", mode: "embedded", reason: "not_running" };
}

/**
 * Down while any provider's circuit breaker is not closed (its calls fail fast or wait for a probe).
 * `cooldowns`: providers that refused a submit lately, tried after a model's other routes.
 */
function providersPart(): Part {
  const snapshots = breakerSnapshots();
  const configured = env().PROVIDER;
  const breakers = snapshots.map(({ provider, state, retryAfterMs }) => ({ provider, state, retryAfterMs }));
  if (!breakers.some((b) => b.provider === configured)) breakers.unshift({ provider: configured, state: "closed", retryAfterMs: 0 });
  const cooldowns = cooldownSnapshots();
  return { status: breakers.every((b) => b.state === "closed") ? "ok" : "down", breakers, cooldowns };
}

/** Local: in-process, always up. YooKassa: configured, and its last call (if recent) answered. */
function paymentsPart(): Part {
  const e = env();
  const provider = e.PAYMENT_PROVIDER;
  if (provider === "local") return { status: "ok", provider };
  if (!e.YOOKASSA_SHOP_ID || !e.YOOKASSA_SECRET_KEY) return { status: "down", provider, reason: "not_configured" };
  const last = lastOutcome("yookassa");
  if (last && !last.ok && Date.now() - last.at < PAYMENT_FAILURE_WINDOW_MS) {
    return { status: "down", provider, reason: "unreachable", since: new Date(last.at).toISOString() };
  }
  return { status: "ok", provider };
}
