-- Citus's rules for tables distributed by org_id (db/distribution.ts, tests/citus-schema.test.ts):
-- every primary key includes org_id, and so does every foreign key between two such tables.
-- Tables numbered across organizations keep their id first, so a lookup by id alone stays an index scan.
ALTER TABLE "alert_reads" DROP CONSTRAINT "alert_reads_alert_id_alerts_id_fk";--> statement-breakpoint
ALTER TABLE "notification_emails" DROP CONSTRAINT "notification_emails_alert_id_alerts_id_fk";--> statement-breakpoint
ALTER TABLE "webhook_deliveries" DROP CONSTRAINT "webhook_deliveries_endpoint_id_webhook_endpoints_id_fk";--> statement-breakpoint
ALTER TABLE "webhook_delivery_attempts" DROP CONSTRAINT "webhook_delivery_attempts_delivery_id_webhook_deliveries_id_fk";--> statement-breakpoint
ALTER TABLE "alert_reads" DROP CONSTRAINT "alert_reads_user_id_alert_id_pk";--> statement-breakpoint
ALTER TABLE "activity_log" DROP CONSTRAINT "activity_log_pkey";--> statement-breakpoint
ALTER TABLE "alerts" DROP CONSTRAINT "alerts_pkey";--> statement-breakpoint
ALTER TABLE "live_tail_streams" DROP CONSTRAINT "live_tail_streams_pkey";--> statement-breakpoint
ALTER TABLE "notification_emails" DROP CONSTRAINT "notification_emails_pkey";--> statement-breakpoint
ALTER TABLE "webhook_deliveries" DROP CONSTRAINT "webhook_deliveries_pkey";--> statement-breakpoint
ALTER TABLE "webhook_endpoints" DROP CONSTRAINT "webhook_endpoints_pkey";--> statement-breakpoint
ALTER TABLE "activity_log" ADD CONSTRAINT "activity_log_id_org_id_pk" PRIMARY KEY("id","org_id");--> statement-breakpoint
ALTER TABLE "alerts" ADD CONSTRAINT "alerts_id_org_id_pk" PRIMARY KEY("id","org_id");--> statement-breakpoint
ALTER TABLE "live_tail_streams" ADD CONSTRAINT "live_tail_streams_id_org_id_pk" PRIMARY KEY("id","org_id");--> statement-breakpoint
ALTER TABLE "notification_emails" ADD CONSTRAINT "notification_emails_id_org_id_pk" PRIMARY KEY("id","org_id");--> statement-breakpoint
ALTER TABLE "webhook_deliveries" ADD CONSTRAINT "webhook_deliveries_id_org_id_pk" PRIMARY KEY("id","org_id");--> statement-breakpoint
ALTER TABLE "webhook_endpoints" ADD CONSTRAINT "webhook_endpoints_id_org_id_pk" PRIMARY KEY("id","org_id");--> statement-breakpoint
-- A read belongs to its alert's organization.
ALTER TABLE "alert_reads" ADD COLUMN "org_id" text;--> statement-breakpoint
UPDATE "alert_reads" SET "org_id" = "alerts"."org_id" FROM "alerts" WHERE "alerts"."id" = "alert_reads"."alert_id";--> statement-breakpoint
ALTER TABLE "alert_reads" ALTER COLUMN "org_id" SET NOT NULL;--> statement-breakpoint
ALTER TABLE "alert_reads" ADD CONSTRAINT "alert_reads_org_id_user_id_alert_id_pk" PRIMARY KEY("org_id","user_id","alert_id");--> statement-breakpoint
ALTER TABLE "alert_reads" ADD CONSTRAINT "alert_reads_org_id_organizations_id_fk" FOREIGN KEY ("org_id") REFERENCES "public"."organizations"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "alert_reads" ADD CONSTRAINT "alert_reads_alert_id_org_id_alerts_id_org_id_fk" FOREIGN KEY ("alert_id","org_id") REFERENCES "public"."alerts"("id","org_id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "webhook_deliveries" ADD CONSTRAINT "webhook_deliveries_endpoint_id_org_id_webhook_endpoints_id_org_id_fk" FOREIGN KEY ("endpoint_id","org_id") REFERENCES "public"."webhook_endpoints"("id","org_id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "webhook_delivery_attempts" ADD CONSTRAINT "webhook_delivery_attempts_delivery_id_org_id_webhook_deliveries_id_org_id_fk" FOREIGN KEY ("delivery_id","org_id") REFERENCES "public"."webhook_deliveries"("id","org_id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "notification_emails" ADD CONSTRAINT "notification_emails_alert_id_org_id_alerts_id_org_id_fk" FOREIGN KEY ("alert_id","org_id") REFERENCES "public"."alerts"("id","org_id") ON DELETE cascade ON UPDATE no action;
