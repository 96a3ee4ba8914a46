ALTER TABLE "api_keys" ADD COLUMN "last_used_ip" text;--> statement-breakpoint
ALTER TABLE "api_keys" ADD COLUMN "last_used_endpoint" text;--> statement-breakpoint
ALTER TABLE "api_keys" ADD COLUMN "revoke_reason" text;--> statement-breakpoint
ALTER TABLE "api_keys" ADD COLUMN "revoke_note" text;--> statement-breakpoint
ALTER TABLE "api_keys" ADD COLUMN "replaces_key_id" text;--> statement-breakpoint
ALTER TABLE "api_keys" ADD CONSTRAINT "api_keys_replaces_key_id_api_keys_id_fk" FOREIGN KEY ("replaces_key_id") REFERENCES "public"."api_keys"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "api_keys_replaces_key_idx" ON "api_keys" USING btree ("replaces_key_id");--> statement-breakpoint
ALTER TABLE "api_keys" ADD CONSTRAINT "api_keys_revoke_reason_when_revoked" CHECK ("api_keys"."revoked_at" is not null or ("api_keys"."revoke_reason" is null and "api_keys"."revoke_note" is null));--> statement-breakpoint
ALTER TABLE "api_keys" ADD CONSTRAINT "api_keys_revoke_reason_known" CHECK ("api_keys"."revoke_reason" is null or "api_keys"."revoke_reason" in ('compromised', 'no_longer_used', 'replaced', 'other'));