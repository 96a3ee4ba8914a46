CREATE TABLE "webhook_delivery_attempts" (
	"org_id" text NOT NULL,
	"delivery_id" text NOT NULL,
	"attempt" integer NOT NULL,
	"attempted_at" timestamp with time zone NOT NULL,
	"response_status" integer,
	"duration_ms" integer NOT NULL,
	"response_excerpt" text NOT NULL,
	CONSTRAINT "webhook_delivery_attempts_org_id_delivery_id_attempt_pk" PRIMARY KEY("org_id","delivery_id","attempt")
);
--> statement-breakpoint
ALTER TABLE "webhook_delivery_attempts" ADD CONSTRAINT "webhook_delivery_attempts_org_id_organizations_id_fk" FOREIGN KEY ("org_id") REFERENCES "public"."organizations"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "webhook_delivery_attempts" ADD CONSTRAINT "webhook_delivery_attempts_delivery_id_webhook_deliveries_id_fk" FOREIGN KEY ("delivery_id") REFERENCES "public"."webhook_deliveries"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
-- Deliveries attempted before attempts were kept one by one still show their last answer as
-- their last attempt; the earlier answers were never stored.
INSERT INTO "webhook_delivery_attempts" ("org_id", "delivery_id", "attempt", "attempted_at", "response_status", "duration_ms", "response_excerpt")
SELECT "org_id", "id", "attempts", "last_attempt_at", "response_status", coalesce("duration_ms", 0), coalesce("response_excerpt", '')
FROM "webhook_deliveries"
WHERE "attempts" > 0 AND "last_attempt_at" IS NOT NULL;
