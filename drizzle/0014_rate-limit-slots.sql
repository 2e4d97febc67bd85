ALTER TABLE "rate_limit_windows" ADD COLUMN "times" bigint[] DEFAULT '{}' NOT NULL;--> statement-breakpoint
ALTER TABLE "rate_limit_windows" ADD COLUMN "counts" integer[] DEFAULT '{}' NOT NULL;--> statement-breakpoint
UPDATE "rate_limit_windows" SET "times" = (SELECT coalesce(array_agg(h ORDER BY h), '{}') FROM unnest("hits") AS h), "counts" = array_fill(1, ARRAY[cardinality("hits")]);
