CREATE TABLE "log_streams" (
	"id" text NOT NULL,
	"org_id" text NOT NULL,
	"name" text NOT NULL,
	"kind" text NOT NULL,
	"settings" jsonb NOT NULL,
	"sealed_secrets" text NOT NULL,
	"secret_hint" text NOT NULL,
	"sources" text[] NOT NULL,
	"mode" "mode" NOT NULL,
	"paused_at" timestamp with time zone,
	"created_by" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"requests_after" bigint NOT NULL,
	"activity_after_tx" "xid8" NOT NULL,
	"activity_after_id" bigint NOT NULL,
	"alerts_after_tx" "xid8" NOT NULL,
	"alerts_after_id" bigint NOT NULL,
	"delivered_at" timestamp with time zone,
	"failing_since" timestamp with time zone,
	"failed_attempts" integer DEFAULT 0 NOT NULL,
	"last_error" text,
	"last_error_at" timestamp with time zone,
	"next_attempt_at" timestamp with time zone,
	"lease_until" timestamp with time zone,
	"dropped_events" bigint DEFAULT 0 NOT NULL,
	CONSTRAINT "log_streams_id_org_id_pk" PRIMARY KEY("id","org_id"),
	CONSTRAINT "log_streams_sources_known" CHECK ("log_streams"."sources" <@ array['requests', 'activity', 'alerts'] and cardinality("log_streams"."sources") > 0)
);
--> statement-breakpoint
ALTER TABLE "activity_log" ADD COLUMN "tx" "xid8" DEFAULT pg_current_xact_id() NOT NULL;--> statement-breakpoint
ALTER TABLE "alerts" ADD COLUMN "tx" "xid8" DEFAULT pg_current_xact_id() NOT NULL;--> statement-breakpoint
ALTER TABLE "log_streams" ADD CONSTRAINT "log_streams_org_id_organizations_id_fk" FOREIGN KEY ("org_id") REFERENCES "public"."organizations"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "log_streams" ADD CONSTRAINT "log_streams_created_by_users_id_fk" FOREIGN KEY ("created_by") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "log_streams_org_idx" ON "log_streams" USING btree ("org_id","created_at");--> statement-breakpoint
CREATE INDEX "activity_log_org_tx_idx" ON "activity_log" USING btree ("org_id","tx","id");--> statement-breakpoint
CREATE INDEX "alerts_org_tx_idx" ON "alerts" USING btree ("org_id","tx","id");