CREATE TABLE "analytics_exports" (
	"destination" text PRIMARY KEY NOT NULL,
	"exported_through" bigint DEFAULT 0 NOT NULL,
	"lease_token" text,
	"leased_until" timestamp with time zone,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE INDEX "request_log_id_brin" ON "request_log" USING brin ("id");