import { bigint, boolean, index, integer, pgTable, primaryKey, text, uniqueIndex } from "drizzle-orm/pg-core";
import { createdAt, credits, timestamps, tstz } from "./_columns";
import { users } from "./users";

export const apiKeyModes = ["live", "test"] as const;
export type ApiKeyMode = (typeof apiKeyModes)[number];

/**
 * API keys: `<prefix>_live_<random>` or `<prefix>_test_<random>`. Only the SHA-256 of the full key
 * is stored; the plaintext is shown once, at creation. High-entropy keys need no slow hash.
 */
export const apiKeys = pgTable(
  "api_keys",
  {
    id: text("id").primaryKey(),
    userId: text("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    name: text("name").notNull(),
    /** Hex SHA-256 of the whole key; the lookup for every authenticated request. */
    hash: text("hash").notNull(),
    /** `<prefix>_live` or `<prefix>_test`. */
    prefix: text("prefix").notNull(),
    /** The first characters of the key, shown in lists so a user can recognise it. */
    start: text("start").notNull(),
    /** `test` keys are the sandbox: local simulator, no real balance. */
    mode: text("mode", { enum: apiKeyModes }).notNull().default("live"),
    enabled: boolean("enabled").notNull().default(true),
    expiresAt: tstz("expires_at"),
    /** Last authenticated request made with the key (written in batches, off the request path). */
    lastRequest: tstz("last_request"),
    /** Authenticated requests made with the key, ever (batched; exact once flushed). */
    requestCount: bigint("request_count", { mode: "number" }).notNull().default(0),
    /** Last billed generation made with the key. */
    lastUsedAt: tstz("last_used_at"),
    /** Credits ever charged through this key (settled amounts; exposed as whole rubles). */
    lifetimeCostCredits: credits("lifetime_cost_credits").notNull().default(0),
    /** Monthly spending cap in whole rubles (UTC calendar month); null means no cap. */
    monthlyLimitRub: integer("monthly_limit_rub"),
    rateLimitEnabled: boolean("rate_limit_enabled").notNull().default(true),
    /** Sliding window length in milliseconds for this key's request limit. */
    rateLimitTimeWindow: integer("rate_limit_time_window").notNull().default(3_600_000),
    /** Requests allowed per window; null falls back to RATE_LIMIT_KEY_PER_HOUR. */
    rateLimitMax: integer("rate_limit_max"),
    ...timestamps,
  },
  (t) => [
    uniqueIndex("api_keys_hash_uq").on(t.hash),
    // GET /me/keys: a user's keys, newest first.
    index("api_keys_user_created_idx").on(t.userId, t.createdAt),
  ],
);

/**
 * Spend per key per UTC calendar month, in credits. The reserve step increments it with a
 * conditional update in the same transaction as the debit, so a cap cannot be overrun by a race.
 */
export const apiKeyMonthlySpend = pgTable(
  "api_key_monthly_spend",
  {
    apiKeyId: text("api_key_id")
      .notNull()
      .references(() => apiKeys.id, { onDelete: "cascade" }),
    /** First day of the month, `YYYY-MM-01`, UTC. */
    month: text("month").notNull(),
    spentCredits: credits("spent_credits").notNull().default(0),
    createdAt: createdAt(),
  },
  (t) => [primaryKey({ columns: [t.apiKeyId, t.month] })],
);
