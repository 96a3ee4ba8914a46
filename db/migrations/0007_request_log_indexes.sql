DROP INDEX "request_log_org_time_idx";--> statement-breakpoint
DROP INDEX "request_log_key_time_idx";--> statement-breakpoint
DROP INDEX "request_log_request_id_idx";--> statement-breakpoint
CREATE INDEX "request_log_org_key_time_idx" ON "request_log" USING btree ("org_id","api_key_id","created_at" DESC NULLS LAST,"id" DESC NULLS LAST);