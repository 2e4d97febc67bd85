import { sql } from "drizzle-orm";
import type { generationRequests, GenerationStatus } from "@/db/schema";

export type GenerationRow = typeof generationRequests.$inferSelect;
/** Which protocol made the job, and so the shape its results and callbacks take. */
export type GenerationSurface = "gateway" | "skill" | "fal";
export type GenerationMode = "sync" | "queue";
/** What activity records for the job (and /me/activity filters by). */
export type GenerationOperation = "run" | "queue" | "generate" | "integration";

export const FINAL_STATUSES: readonly GenerationStatus[] = ["completed", "failed", "cancelled"];
/** The final statuses as a literal SQL list, for `status not in (…)` in raw statements. */
export const FINAL_STATUS_SQL_LIST = sql.raw(FINAL_STATUSES.map((s) => `'${s}'`).join(", "));
export const isFinal = (status: GenerationStatus) => FINAL_STATUSES.includes(status);

/** How a job ended, as finalize records it. */
export type GenerationOutcome =
  | { kind: "completed"; providerOutput: Record<string, unknown>; output: Record<string, unknown> }
  | { kind: "failed"; errorCode: "generation_failed" | "provider_error" | "timeout"; message: string }
  | { kind: "cancelled" };
