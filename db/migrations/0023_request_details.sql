CREATE TABLE "live_tail_streams" (
	"id" text PRIMARY KEY NOT NULL,
	"user_id" text NOT NULL,
	"org_id" text NOT NULL,
	"opened_at" timestamp with time zone DEFAULT now() NOT NULL,
	"seen_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "request_detail" (
	"org_id" text NOT NULL,
	"created_at" timestamp with time zone NOT NULL,
	"request_id" text NOT NULL,
	"idempotency_key" text,
	"replayed" boolean DEFAULT false NOT NULL,
	"error_message" text,
	"request_body" text,
	"request_body_bytes" integer,
	"response_body" text,
	"response_body_bytes" integer,
	CONSTRAINT "request_detail_org_id_created_at_request_id_pk" PRIMARY KEY("org_id","created_at","request_id")
) PARTITION BY RANGE ("created_at");
--> statement-breakpoint
-- Daily partitions are created ahead and dropped after 30 days by db/partitions.ts; the default
-- partition only catches rows outside them so a write never fails for want of one.
CREATE TABLE "request_detail_default" PARTITION OF "request_detail" DEFAULT;
--> statement-breakpoint
ALTER TABLE "live_tail_streams" ADD CONSTRAINT "live_tail_streams_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "live_tail_streams_user_idx" ON "live_tail_streams" USING btree ("user_id");--> statement-breakpoint
CREATE INDEX "request_log_org_id_idx" ON "request_log" USING btree ("org_id","id");