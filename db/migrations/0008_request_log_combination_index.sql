DROP INDEX "request_log_org_endpoint_time_idx";--> statement-breakpoint
DROP INDEX "request_log_org_status_time_idx";--> statement-breakpoint
DROP INDEX "request_log_org_status_class_time_idx";--> statement-breakpoint
DROP INDEX "request_log_org_method_time_idx";--> statement-breakpoint
DROP INDEX "request_log_org_key_time_idx";--> statement-breakpoint
CREATE INDEX "request_log_org_combination_time_idx" ON "request_log" USING btree ("org_id","api_key_id","endpoint","status","created_at","id");--> statement-breakpoint
CREATE INDEX "request_log_org_key_time_idx" ON "request_log" USING btree ("org_id","api_key_id","created_at","id");