ALTER TABLE "api_keys" ADD COLUMN "access" text DEFAULT 'full' NOT NULL;--> statement-breakpoint
ALTER TABLE "api_keys" ADD COLUMN "scopes" jsonb DEFAULT '{}'::jsonb NOT NULL;--> statement-breakpoint
ALTER TABLE "api_keys" ADD COLUMN "ip_allowlist" text[] DEFAULT '{}'::text[] NOT NULL;--> statement-breakpoint
ALTER TABLE "request_log" ADD COLUMN "error_code" text;--> statement-breakpoint
ALTER TABLE "api_keys" ADD CONSTRAINT "api_keys_access_known" CHECK ("api_keys"."access" in ('full', 'read_only', 'restricted'));--> statement-breakpoint
ALTER TABLE "api_keys" ADD CONSTRAINT "api_keys_scopes_only_when_restricted" CHECK ("api_keys"."access" = 'restricted' or "api_keys"."scopes" = '{}'::jsonb);--> statement-breakpoint
ALTER TABLE "api_keys" ADD CONSTRAINT "api_keys_ip_allowlist_valid" CHECK (cardinality("api_keys"."ip_allowlist") <= 20 and "api_keys"."ip_allowlist"::cidr[] is not null);