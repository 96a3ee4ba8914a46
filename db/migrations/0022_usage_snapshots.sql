CREATE TABLE "usage_snapshot_mark" (
	"org_id" text PRIMARY KEY NOT NULL,
	"hours_through" timestamp with time zone,
	"days_through" timestamp with time zone
);
--> statement-breakpoint
CREATE TABLE "usage_snapshot" (
	"org_id" text NOT NULL,
	"grain" text NOT NULL,
	"kind" text NOT NULL,
	"level" text NOT NULL,
	"period_start" timestamp with time zone NOT NULL,
	"document" text NOT NULL,
	CONSTRAINT "usage_snapshot_pk" PRIMARY KEY("org_id","grain","kind","level","period_start")
);
--> statement-breakpoint
-- Organizations with traffic already rolled up: their snapshots are built from the start.
INSERT INTO usage_snapshot_mark (org_id) SELECT DISTINCT org_id FROM request_daily_rollup;
