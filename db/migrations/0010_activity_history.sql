DROP INDEX "activity_log_org_created_idx";--> statement-breakpoint
ALTER TABLE "activity_log" ADD COLUMN "actor_kind" text DEFAULT 'user' NOT NULL;--> statement-breakpoint
ALTER TABLE "activity_log" ADD COLUMN "target_type" text;--> statement-breakpoint
ALTER TABLE "activity_log" ADD COLUMN "target_name" text;--> statement-breakpoint
ALTER TABLE "activity_log" ADD COLUMN "before" jsonb;--> statement-breakpoint
ALTER TABLE "activity_log" ADD COLUMN "after" jsonb;--> statement-breakpoint
ALTER TABLE "activity_log" ADD COLUMN "ip" text;--> statement-breakpoint
ALTER TABLE "activity_log" ADD COLUMN "user_agent" text;--> statement-breakpoint
-- Entries written before the history had targets and before/after values: derive them from
-- what each action stored in its metadata.
UPDATE "activity_log" a SET
  "target_type" = CASE WHEN a."action" LIKE 'api_key.%' THEN 'api_key' ELSE 'organization' END,
  "target_id" = coalesce(a."target_id", a."org_id"),
  "target_name" = CASE
    WHEN a."action" LIKE 'api_key.%' THEN coalesce(a."metadata"->>'name', (SELECT k."name" FROM "api_keys" k WHERE k."id" = a."target_id"), a."target_id", '')
    ELSE coalesce((SELECT o."name" FROM "organizations" o WHERE o."id" = a."org_id"), a."org_id") END,
  "before" = CASE a."action"
    WHEN 'api_key.revoked' THEN '{"status": "active"}'::jsonb
    WHEN 'plan.changed' THEN jsonb_build_object('plan', a."metadata"->'from')
    ELSE NULL END,
  "after" = CASE a."action"
    WHEN 'api_key.revoked' THEN '{"status": "revoked"}'::jsonb
    WHEN 'plan.changed' THEN jsonb_build_object('plan', a."metadata"->'to')
    ELSE a."metadata" END;--> statement-breakpoint
ALTER TABLE "activity_log" ALTER COLUMN "target_id" SET NOT NULL;--> statement-breakpoint
ALTER TABLE "activity_log" ALTER COLUMN "target_type" SET NOT NULL;--> statement-breakpoint
ALTER TABLE "activity_log" ALTER COLUMN "target_name" SET NOT NULL;--> statement-breakpoint
CREATE INDEX "activity_log_org_time_idx" ON "activity_log" USING btree ("org_id","created_at","id");--> statement-breakpoint
CREATE INDEX "activity_log_org_target_time_idx" ON "activity_log" USING btree ("org_id","target_id","created_at","id");--> statement-breakpoint
CREATE UNIQUE INDEX "activity_log_key_expired_once_idx" ON "activity_log" USING btree ("org_id","target_id") WHERE "activity_log"."action" = 'api_key.expired';--> statement-breakpoint
ALTER TABLE "activity_log" ADD CONSTRAINT "activity_log_system_has_no_user" CHECK ("activity_log"."actor_kind" = 'user' or "activity_log"."actor_user_id" is null);
