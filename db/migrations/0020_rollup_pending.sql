CREATE TABLE "request_rollup_pending" (
	"org_id" text NOT NULL,
	"api_key_id" text NOT NULL,
	"created_at" timestamp with time zone NOT NULL,
	"endpoint" text NOT NULL,
	"status" smallint NOT NULL,
	"latency_bucket" smallint NOT NULL
);
