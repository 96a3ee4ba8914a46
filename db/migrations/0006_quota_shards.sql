ALTER TABLE "monthly_usage" ADD COLUMN "shard" smallint DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "monthly_usage" ADD COLUMN "cap" integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "monthly_usage" DROP CONSTRAINT "monthly_usage_org_id_month_pk";--> statement-breakpoint
ALTER TABLE "monthly_usage" ADD CONSTRAINT "monthly_usage_org_id_month_shard_pk" PRIMARY KEY("org_id","month","shard");--> statement-breakpoint
-- The counts kept so far are spread over shards as spreadMonthlyUsage does, with the quotas the
-- plans have at this migration (trial 50, pro 10,000): first every count moves to the overflow
-- shard -1, then the part within the quota moves into shards 0..7 under their caps.
UPDATE "monthly_usage" SET "shard" = -1;--> statement-breakpoint
INSERT INTO "monthly_usage" ("org_id", "month", "shard", "count", "cap")
SELECT u.org_id, u.month, n,
  least(u.count, q.quota) / least(8, q.quota) + (n < least(u.count, q.quota) % least(8, q.quota))::int,
  q.quota / least(8, q.quota) + (n < q.quota % least(8, q.quota))::int
FROM "monthly_usage" u
JOIN "organizations" o ON o.id = u.org_id
JOIN (VALUES ('trial', 50), ('pro', 10000)) AS q(plan, quota) ON q.plan = o.plan::text
CROSS JOIN LATERAL generate_series(0, least(8, q.quota) - 1) AS n
WHERE u.shard = -1;--> statement-breakpoint
UPDATE "monthly_usage" u SET "count" = u.count - least(u.count, q.quota)
FROM "organizations" o, (VALUES ('trial', 50), ('pro', 10000)) AS q(plan, quota)
WHERE u.shard = -1 AND o.id = u.org_id AND q.plan = o.plan::text;--> statement-breakpoint
DELETE FROM "monthly_usage" WHERE "shard" = -1 AND "count" = 0;
