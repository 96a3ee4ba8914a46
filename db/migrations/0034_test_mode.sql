-- Test mode (docs/features/test-mode.md): every key and business record belongs to live or test.
-- What exists becomes live; the default is dropped after, so a write must say its mode.
CREATE TYPE "public"."mode" AS ENUM('live', 'test');--> statement-breakpoint
ALTER TABLE "api_keys" ADD COLUMN "mode" "mode" NOT NULL DEFAULT 'live';--> statement-breakpoint
ALTER TABLE "idempotency_keys" ADD COLUMN "mode" "mode" NOT NULL DEFAULT 'live';--> statement-breakpoint
ALTER TABLE "customers" ADD COLUMN "mode" "mode" NOT NULL DEFAULT 'live';--> statement-breakpoint
ALTER TABLE "invoice_counters" ADD COLUMN "mode" "mode" NOT NULL DEFAULT 'live';--> statement-breakpoint
ALTER TABLE "invoice_line_items" ADD COLUMN "mode" "mode" NOT NULL DEFAULT 'live';--> statement-breakpoint
ALTER TABLE "invoices" ADD COLUMN "mode" "mode" NOT NULL DEFAULT 'live';--> statement-breakpoint
ALTER TABLE "products" ADD COLUMN "mode" "mode" NOT NULL DEFAULT 'live';--> statement-breakpoint
ALTER TABLE "invoice_line_items" DROP CONSTRAINT "invoice_line_items_org_id_invoice_id_invoices_org_id_id_fk";
--> statement-breakpoint
ALTER TABLE "invoice_line_items" DROP CONSTRAINT "invoice_line_items_org_id_product_id_products_org_id_id_fk";
--> statement-breakpoint
ALTER TABLE "invoices" DROP CONSTRAINT "invoices_org_id_customer_id_customers_org_id_id_fk";
--> statement-breakpoint
DROP INDEX "customers_org_created_idx";--> statement-breakpoint
DROP INDEX "invoice_line_items_org_invoice_idx";--> statement-breakpoint
DROP INDEX "invoices_org_number_idx";--> statement-breakpoint
DROP INDEX "invoices_org_created_idx";--> statement-breakpoint
DROP INDEX "invoices_org_customer_status_idx";--> statement-breakpoint
DROP INDEX "invoices_org_status_due_idx";--> statement-breakpoint
DROP INDEX "invoices_org_paid_idx";--> statement-breakpoint
DROP INDEX "products_org_sku_idx";--> statement-breakpoint
DROP INDEX "products_org_created_idx";--> statement-breakpoint
ALTER TABLE "idempotency_keys" DROP CONSTRAINT "idempotency_keys_org_id_key_pk";--> statement-breakpoint
ALTER TABLE "customers" DROP CONSTRAINT "customers_org_id_id_pk";--> statement-breakpoint
ALTER TABLE "invoice_line_items" DROP CONSTRAINT "invoice_line_items_org_id_id_pk";--> statement-breakpoint
ALTER TABLE "invoices" DROP CONSTRAINT "invoices_org_id_id_pk";--> statement-breakpoint
ALTER TABLE "products" DROP CONSTRAINT "products_org_id_id_pk";--> statement-breakpoint
ALTER TABLE "invoice_counters" DROP CONSTRAINT "invoice_counters_pkey";--> statement-breakpoint
ALTER TABLE "idempotency_keys" ADD CONSTRAINT "idempotency_keys_org_id_mode_key_pk" PRIMARY KEY("org_id","mode","key");--> statement-breakpoint
ALTER TABLE "customers" ADD CONSTRAINT "customers_org_id_mode_id_pk" PRIMARY KEY("org_id","mode","id");--> statement-breakpoint
ALTER TABLE "invoice_counters" ADD CONSTRAINT "invoice_counters_org_id_mode_pk" PRIMARY KEY("org_id","mode");--> statement-breakpoint
ALTER TABLE "invoice_line_items" ADD CONSTRAINT "invoice_line_items_org_id_mode_id_pk" PRIMARY KEY("org_id","mode","id");--> statement-breakpoint
ALTER TABLE "invoices" ADD CONSTRAINT "invoices_org_id_mode_id_pk" PRIMARY KEY("org_id","mode","id");--> statement-breakpoint
ALTER TABLE "products" ADD CONSTRAINT "products_org_id_mode_id_pk" PRIMARY KEY("org_id","mode","id");--> statement-breakpoint
ALTER TABLE "invoice_line_items" ADD CONSTRAINT "invoice_line_items_org_id_mode_invoice_id_invoices_org_id_mode_id_fk" FOREIGN KEY ("org_id","mode","invoice_id") REFERENCES "public"."invoices"("org_id","mode","id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "invoice_line_items" ADD CONSTRAINT "invoice_line_items_org_id_mode_product_id_products_org_id_mode_id_fk" FOREIGN KEY ("org_id","mode","product_id") REFERENCES "public"."products"("org_id","mode","id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "invoices" ADD CONSTRAINT "invoices_org_id_mode_customer_id_customers_org_id_mode_id_fk" FOREIGN KEY ("org_id","mode","customer_id") REFERENCES "public"."customers"("org_id","mode","id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "customers_org_mode_created_idx" ON "customers" USING btree ("org_id","mode","created_at" DESC NULLS LAST,"id" DESC NULLS LAST);--> statement-breakpoint
CREATE INDEX "invoice_line_items_org_mode_invoice_idx" ON "invoice_line_items" USING btree ("org_id","mode","invoice_id","position");--> statement-breakpoint
CREATE UNIQUE INDEX "invoices_org_mode_number_idx" ON "invoices" USING btree ("org_id","mode","number");--> statement-breakpoint
CREATE INDEX "invoices_org_mode_created_idx" ON "invoices" USING btree ("org_id","mode","created_at" DESC NULLS LAST,"id" DESC NULLS LAST);--> statement-breakpoint
CREATE INDEX "invoices_org_mode_customer_status_idx" ON "invoices" USING btree ("org_id","mode","customer_id","status");--> statement-breakpoint
CREATE INDEX "invoices_org_mode_status_due_idx" ON "invoices" USING btree ("org_id","mode","status","due_date");--> statement-breakpoint
CREATE INDEX "invoices_org_mode_paid_idx" ON "invoices" USING btree ("org_id","mode","paid_at");--> statement-breakpoint
CREATE UNIQUE INDEX "products_org_mode_sku_idx" ON "products" USING btree ("org_id","mode","sku");--> statement-breakpoint
CREATE INDEX "products_org_mode_created_idx" ON "products" USING btree ("org_id","mode","created_at" DESC NULLS LAST,"id" DESC NULLS LAST);--> statement-breakpoint
ALTER TABLE "api_keys" ALTER COLUMN "mode" DROP DEFAULT;--> statement-breakpoint
ALTER TABLE "idempotency_keys" ALTER COLUMN "mode" DROP DEFAULT;--> statement-breakpoint
ALTER TABLE "customers" ALTER COLUMN "mode" DROP DEFAULT;--> statement-breakpoint
ALTER TABLE "invoice_counters" ALTER COLUMN "mode" DROP DEFAULT;--> statement-breakpoint
ALTER TABLE "invoice_line_items" ALTER COLUMN "mode" DROP DEFAULT;--> statement-breakpoint
ALTER TABLE "invoices" ALTER COLUMN "mode" DROP DEFAULT;--> statement-breakpoint
ALTER TABLE "products" ALTER COLUMN "mode" DROP DEFAULT;--> statement-breakpoint
-- Usage snapshots sum one mode's traffic: the old ones (both modes together) go, and the next build takes them again from the rollups.
DELETE FROM "usage_snapshot";--> statement-breakpoint
UPDATE "usage_snapshot_mark" SET "hours_through" = NULL, "days_through" = NULL;--> statement-breakpoint
ALTER TABLE "usage_snapshot" DROP CONSTRAINT "usage_snapshot_pk";--> statement-breakpoint
ALTER TABLE "usage_snapshot" ADD COLUMN "mode" "mode" NOT NULL;--> statement-breakpoint
ALTER TABLE "usage_snapshot" ADD CONSTRAINT "usage_snapshot_pk" PRIMARY KEY("org_id","mode","grain","kind","level","period_start");--> statement-breakpoint
-- Existing webhook endpoints and Slack channels receive live events.
ALTER TABLE "webhook_endpoints" ADD COLUMN "mode" "mode" NOT NULL DEFAULT 'live';--> statement-breakpoint
ALTER TABLE "webhook_endpoints" ALTER COLUMN "mode" DROP DEFAULT;
