DROP INDEX "credit_transactions_user_created_idx";--> statement-breakpoint
DROP INDEX "credit_transactions_created_idx";--> statement-breakpoint
CREATE INDEX "credit_transactions_user_type_created_idx" ON "credit_transactions" USING btree ("user_id","type","created_at","id");--> statement-breakpoint
CREATE INDEX "activity_created_idx" ON "activity" USING btree ("created_at" DESC NULLS LAST);--> statement-breakpoint
CREATE INDEX "credit_transactions_user_created_idx" ON "credit_transactions" USING btree ("user_id","created_at","id");--> statement-breakpoint
CREATE INDEX "credit_transactions_created_idx" ON "credit_transactions" USING btree ("created_at","id");