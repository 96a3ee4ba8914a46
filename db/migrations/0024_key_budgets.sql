CREATE TABLE "key_budget_usage" (
	"org_id" text NOT NULL,
	"api_key_id" text NOT NULL,
	"period_start" timestamp with time zone NOT NULL,
	"used" integer NOT NULL,
	"prior" integer DEFAULT 0 NOT NULL,
	"budget_limit" integer NOT NULL,
	CONSTRAINT "key_budget_usage_org_id_api_key_id_period_start_pk" PRIMARY KEY("org_id","api_key_id","period_start")
);
--> statement-breakpoint
ALTER TABLE "api_keys" ADD COLUMN "budget_limit" integer;--> statement-breakpoint
ALTER TABLE "api_keys" ADD COLUMN "budget_period" text;--> statement-breakpoint
ALTER TABLE "api_keys" ADD CONSTRAINT "api_keys_budget_valid" CHECK (("api_keys"."budget_limit" is null and "api_keys"."budget_period" is null) or ("api_keys"."budget_limit" between 1 and 1000000000 and "api_keys"."budget_period" in ('day', 'week', 'month')));