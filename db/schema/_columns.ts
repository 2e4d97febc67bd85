import { bigint, timestamp } from "drizzle-orm/pg-core";

/** A timestamp column with time zone, read as a JS Date. */
export const tstz = (name: string) => timestamp(name, { withTimezone: true, mode: "date" });

export const createdAt = () => tstz("created_at").notNull().defaultNow();

export const timestamps = {
  createdAt: createdAt(),
  updatedAt: tstz("updated_at")
    .notNull()
    .defaultNow()
    .$onUpdate(() => new Date()),
};

/**
 * An amount in credits (1 credit = 0.0001 ₽), stored as bigint and read as a JS number.
 * Balances stay far below 2^53 credits (≈ 900 billion ₽), so `number` is exact here; the
 * arithmetic that can overflow (quotes) is done in BigInt in lib/pricing.
 */
export const credits = (name: string) => bigint(name, { mode: "number" });
