CREATE TABLE "alert_reads" (
	"alert_id" bigint NOT NULL,
	"user_id" text NOT NULL,
	"read_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "alert_reads_user_id_alert_id_pk" PRIMARY KEY("user_id","alert_id")
);
--> statement-breakpoint
CREATE TABLE "alerts" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"org_id" text NOT NULL,
	"kind" text NOT NULL,
	"period" text NOT NULL,
	"api_key_id" text,
	"details" jsonb NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "alerts_kind_known" CHECK ("alerts"."kind" in ('quota_threshold', 'rate_limited', 'key_expiring', 'key_expired'))
);
--> statement-breakpoint
ALTER TABLE "organizations" ADD COLUMN "quota_alert_thresholds" integer[] DEFAULT '{80,90,100}'::integer[] NOT NULL;--> statement-breakpoint
ALTER TABLE "organizations" ADD COLUMN "rate_limit_alert_threshold" integer DEFAULT 10 NOT NULL;--> statement-breakpoint
ALTER TABLE "alert_reads" ADD CONSTRAINT "alert_reads_alert_id_alerts_id_fk" FOREIGN KEY ("alert_id") REFERENCES "public"."alerts"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "alert_reads" ADD CONSTRAINT "alert_reads_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "alerts" ADD CONSTRAINT "alerts_org_id_organizations_id_fk" FOREIGN KEY ("org_id") REFERENCES "public"."organizations"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "alerts" ADD CONSTRAINT "alerts_api_key_id_api_keys_id_fk" FOREIGN KEY ("api_key_id") REFERENCES "public"."api_keys"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "alerts_once_per_period_idx" ON "alerts" USING btree ("org_id","kind","period");--> statement-breakpoint
CREATE INDEX "alerts_org_time_idx" ON "alerts" USING btree ("org_id","created_at" DESC NULLS LAST,"id" DESC NULLS LAST);--> statement-breakpoint
ALTER TABLE "organizations" ADD CONSTRAINT "organizations_quota_alert_thresholds_valid" CHECK (cardinality("organizations"."quota_alert_thresholds") <= 5 and 1 <= all("organizations"."quota_alert_thresholds") and 100 >= all("organizations"."quota_alert_thresholds"));--> statement-breakpoint
ALTER TABLE "organizations" ADD CONSTRAINT "organizations_rate_limit_alert_threshold_valid" CHECK ("organizations"."rate_limit_alert_threshold" between 1 and 100000);