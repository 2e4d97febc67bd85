import { index, pgTable, primaryKey, text } from "drizzle-orm/pg-core";
import { createdAt } from "./_columns";
import { generationRequests } from "./generations";
import { users } from "./users";

/**
 * `Idempotency-Key` headers of generation-creating requests (Stripe's contract): the first request
 * with a key records which job it made, and a repeat within 24 h answers with that job instead of
 * making another. A row is written only by the statement (or transaction) that creates the job
 * and its reserve, so a key never points at nothing and a request refused before a job existed
 * (400, 402, 429, 503) leaves the key free for a retry.
 */
/** How long a key is honoured from its row's `created_at`. */
export const IDEMPOTENCY_TTL_MS = 24 * 3_600_000;

export const idempotencyKeys = pgTable(
  "idempotency_keys",
  {
    userId: text("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    /** The header's value as the client sent it (1–255 characters); scoped to the user. */
    key: text("key").notNull(),
    /**
     * SHA-256 (hex) of the canonical request: operation, model, body (canonical JSON) and the query
     * parameters that change behaviour. A repeat with another fingerprint is 422 idempotency_key_reused.
     */
    fingerprint: text("fingerprint").notNull(),
    /** The job the first request created; its row is the outcome every repeat answers with. */
    generationId: text("generation_id")
      .notNull()
      .references(() => generationRequests.id, { onDelete: "cascade" }),
    /** Keys are honoured for 24 h from here; older rows are ignored, then pruned. */
    createdAt: createdAt(),
  },
  (t) => [
    // The unique guard that makes 20 concurrent duplicates collapse into one job: every loser's
    // insert fails on it and reads the winner's row instead.
    primaryKey({ name: "idempotency_keys_pkey", columns: [t.userId, t.key] }),
    // The hourly prune deletes rows past the retention window.
    index("idempotency_keys_created_idx").on(t.createdAt),
  ],
);
