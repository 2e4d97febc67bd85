DROP INDEX "dev_mail_to_created_idx";--> statement-breakpoint
DROP INDEX "activity_user_created_idx";--> statement-breakpoint
DROP INDEX "activity_key_created_idx";--> statement-breakpoint
DROP INDEX "activity_created_idx";--> statement-breakpoint
DROP INDEX "generation_requests_user_created_idx";--> statement-breakpoint
DROP INDEX "assets_user_created_idx";--> statement-breakpoint
DROP INDEX "uploads_user_created_idx";--> statement-breakpoint
DROP INDEX "payments_user_created_idx";--> statement-breakpoint
DROP INDEX "webhook_deliveries_user_idx";--> statement-breakpoint
CREATE INDEX "dev_mail_to_created_idx" ON "dev_mail" USING btree ("to","created_at","id");--> statement-breakpoint
CREATE INDEX "activity_user_created_idx" ON "activity" USING btree ("user_id","created_at","id");--> statement-breakpoint
CREATE INDEX "activity_key_created_idx" ON "activity" USING btree ("api_key_id","created_at","id");--> statement-breakpoint
CREATE INDEX "activity_created_idx" ON "activity" USING btree ("created_at","id");--> statement-breakpoint
CREATE INDEX "generation_requests_user_created_idx" ON "generation_requests" USING btree ("user_id","created_at","id");--> statement-breakpoint
CREATE INDEX "assets_user_created_idx" ON "assets" USING btree ("user_id","created_at","id");--> statement-breakpoint
CREATE INDEX "uploads_user_created_idx" ON "uploads" USING btree ("user_id","created_at","id");--> statement-breakpoint
CREATE INDEX "payments_user_created_idx" ON "payments" USING btree ("user_id","created_at","id");--> statement-breakpoint
CREATE INDEX "webhook_deliveries_user_idx" ON "webhook_deliveries" USING btree ("user_id","created_at","id");