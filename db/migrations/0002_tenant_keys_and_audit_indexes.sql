-- org_id leads the keys of the request log, its rollup and the rate-limit windows, so each can be
-- distributed by org_id (docs/operations.md#beyond-one-machine). Rate-limit windows live for a minute: the open ones are dropped
-- rather than given an organization, which at most lets one minute's count start over.
DELETE FROM "rate_limit_windows";--> statement-breakpoint
ALTER TABLE "rate_limit_windows" DROP CONSTRAINT "rate_limit_windows_api_key_id_window_start_pk";--> statement-breakpoint
ALTER TABLE "rate_limit_windows" ADD COLUMN "org_id" text NOT NULL;--> statement-breakpoint
ALTER TABLE "rate_limit_windows" ADD CONSTRAINT "rate_limit_windows_org_id_api_key_id_window_start_pk" PRIMARY KEY("org_id","api_key_id","window_start");--> statement-breakpoint
ALTER TABLE "request_daily_rollup" DROP CONSTRAINT "request_daily_rollup_api_key_id_day_endpoint_status_pk";--> statement-breakpoint
ALTER TABLE "request_daily_rollup" ADD CONSTRAINT "request_daily_rollup_org_id_api_key_id_day_endpoint_status_pk" PRIMARY KEY("org_id","api_key_id","day","endpoint","status");--> statement-breakpoint
ALTER TABLE "request_log" DROP CONSTRAINT "request_log_created_at_id_pk";--> statement-breakpoint
ALTER TABLE "request_log" ADD CONSTRAINT "request_log_org_id_created_at_id_pk" PRIMARY KEY("org_id","created_at","id");--> statement-breakpoint
CREATE INDEX "request_log_org_status_class_time_idx" ON "request_log" USING btree ("org_id",("status" / 100),"created_at" DESC NULLS LAST,"id" DESC NULLS LAST);--> statement-breakpoint
CREATE INDEX "request_log_org_method_time_idx" ON "request_log" USING btree ("org_id","method","created_at" DESC NULLS LAST,"id" DESC NULLS LAST);
