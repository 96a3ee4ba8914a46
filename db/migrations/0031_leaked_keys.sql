ALTER TABLE "alerts" DROP CONSTRAINT "alerts_kind_known";--> statement-breakpoint
ALTER TABLE "api_keys" DROP CONSTRAINT "api_keys_revoke_reason_known";--> statement-breakpoint
ALTER TABLE "notification_emails" DROP CONSTRAINT "notification_emails_kind_known";--> statement-breakpoint
ALTER TABLE "notification_preferences" DROP CONSTRAINT "notification_preferences_kind_known";--> statement-breakpoint
ALTER TABLE "organizations" ADD COLUMN "leaked_key_response" text DEFAULT 'revoke' NOT NULL;--> statement-breakpoint
ALTER TABLE "organizations" ADD CONSTRAINT "organizations_leaked_key_response_known" CHECK ("organizations"."leaked_key_response" in ('revoke', 'alert'));--> statement-breakpoint
ALTER TABLE "alerts" ADD CONSTRAINT "alerts_kind_known" CHECK ("alerts"."kind" in ('quota_threshold', 'budget_threshold', 'rate_limited', 'key_expiring', 'key_expired', 'webhook_disabled', 'key_leaked'));--> statement-breakpoint
ALTER TABLE "api_keys" ADD CONSTRAINT "api_keys_revoke_reason_known" CHECK ("api_keys"."revoke_reason" is null or "api_keys"."revoke_reason" in ('compromised', 'no_longer_used', 'replaced', 'other', 'leaked'));--> statement-breakpoint
ALTER TABLE "notification_emails" ADD CONSTRAINT "notification_emails_kind_known" CHECK ("notification_emails"."kind" in ('quota_threshold', 'budget_threshold', 'rate_limited', 'key_expiring', 'key_expired', 'webhook_disabled', 'key_leaked', 'expiry_reminder'));--> statement-breakpoint
ALTER TABLE "notification_preferences" ADD CONSTRAINT "notification_preferences_kind_known" CHECK ("notification_preferences"."kind" in ('quota_threshold', 'budget_threshold', 'rate_limited', 'key_expiring', 'key_expired', 'webhook_disabled', 'key_leaked', 'expiry_reminder'));