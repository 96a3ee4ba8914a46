CREATE TABLE "request_hourly_rollup" (
	"org_id" text NOT NULL,
	"period_start" timestamp with time zone NOT NULL,
	"api_key_id" text NOT NULL,
	"endpoint" text NOT NULL,
	"status" smallint NOT NULL,
	"count" bigint DEFAULT 0 NOT NULL,
	"latency_buckets" smallint[] DEFAULT '{}' NOT NULL,
	"latency_counts" bigint[] DEFAULT '{}' NOT NULL,
	CONSTRAINT "request_hourly_rollup_pk" PRIMARY KEY("org_id","period_start","api_key_id","endpoint","status")
);
--> statement-breakpoint
CREATE TABLE "request_minute_rollup" (
	"org_id" text NOT NULL,
	"period_start" timestamp with time zone NOT NULL,
	"api_key_id" text NOT NULL,
	"endpoint" text NOT NULL,
	"status" smallint NOT NULL,
	"count" bigint DEFAULT 0 NOT NULL,
	"latency_buckets" smallint[] DEFAULT '{}' NOT NULL,
	"latency_counts" bigint[] DEFAULT '{}' NOT NULL,
	CONSTRAINT "request_minute_rollup_pk" PRIMARY KEY("org_id","period_start","api_key_id","endpoint","status")
);
--> statement-breakpoint
ALTER TABLE "request_daily_rollup" ADD COLUMN "latency_buckets" smallint[] DEFAULT '{}' NOT NULL;--> statement-breakpoint
ALTER TABLE "request_daily_rollup" ADD COLUMN "latency_counts" bigint[] DEFAULT '{}' NOT NULL;--> statement-breakpoint
-- The latency histogram's buckets (core/latency-histogram.ts): γ = 1.02 / 0.98, so a bucket's value
-- 2γ^(b-1) / (1 + γ) is within 2 % of every duration in it. The small epsilon keeps a duration that
-- is an exact power of γ in its own bucket despite ln()'s rounding.
CREATE FUNCTION latency_bucket(ms integer) RETURNS smallint LANGUAGE sql IMMUTABLE PARALLEL SAFE
  RETURN CASE WHEN ms < 1 THEN 0 ELSE 1 + ceil(ln(ms) / ln(51.0 / 49.0) - 1e-9) END;
--> statement-breakpoint
CREATE FUNCTION latency_bucket_ms(bucket smallint) RETURNS float8 LANGUAGE sql IMMUTABLE PARALLEL SAFE
  RETURN CASE WHEN bucket = 0 THEN 0 ELSE 2 * power(51.0 / 49.0, bucket - 1) / (1 + 51.0 / 49.0) END;
--> statement-breakpoint
-- Two histograms as one: counts added per bucket, buckets ascending. A merge of the two sorted
-- arrays in PL/pgSQL: the log writer calls it for every rollup row a batch adds to, and an SQL body
-- (unnest, group, array_agg) cost three times as much there (bench/run.ts, the gateway's batch).
CREATE FUNCTION latency_merge(buckets_a smallint[], counts_a bigint[], buckets_b smallint[], counts_b bigint[], OUT buckets smallint[], OUT counts bigint[])
  LANGUAGE plpgsql IMMUTABLE PARALLEL SAFE AS $$
DECLARE
  i integer := 1;
  j integer := 1;
  size_a integer := coalesce(array_length(buckets_a, 1), 0);
  size_b integer := coalesce(array_length(buckets_b, 1), 0);
BEGIN
  buckets := '{}';
  counts := '{}';
  WHILE i <= size_a OR j <= size_b LOOP
    IF j > size_b OR (i <= size_a AND buckets_a[i] < buckets_b[j]) THEN
      buckets := buckets || buckets_a[i]; counts := counts || counts_a[i]; i := i + 1;
    ELSIF i > size_a OR buckets_b[j] < buckets_a[i] THEN
      buckets := buckets || buckets_b[j]; counts := counts || counts_b[j]; j := j + 1;
    ELSE
      buckets := buckets || buckets_a[i]; counts := counts || (counts_a[i] + counts_b[j]); i := i + 1; j := j + 1;
    END IF;
  END LOOP;
END $$;
--> statement-breakpoint
-- The duration at or below which `percent` % of a histogram's requests fall (nearest rank: the
-- ceil(percent × total / 100)-th smallest), as its bucket's value; null for an empty histogram.
CREATE FUNCTION latency_percentile(buckets smallint[], counts bigint[], percent integer) RETURNS float8
  LANGUAGE sql IMMUTABLE PARALLEL SAFE
  BEGIN ATOMIC
    SELECT latency_bucket_ms(b) FROM (
      SELECT b, sum(n) OVER (ORDER BY b) AS at_or_below, sum(n) OVER () AS total FROM unnest(buckets, counts) AS u(b, n)
    ) AS ranked
    WHERE at_or_below >= ceil(total * percent / 100.0)
    ORDER BY b LIMIT 1;
  END;
--> statement-breakpoint
-- Rollups of the traffic already logged: histograms for the daily rows, and the hourly and minute
-- rows for as long as they are kept (core/usage-grains.ts).
UPDATE request_daily_rollup r SET latency_buckets = h.buckets, latency_counts = h.counts
FROM (
  SELECT org_id, api_key_id, day, endpoint, status, array_agg(bucket ORDER BY bucket) AS buckets, array_agg(n ORDER BY bucket) AS counts
  FROM (
    SELECT org_id, api_key_id, (created_at AT TIME ZONE 'UTC')::date AS day, endpoint, status, latency_bucket(duration_ms) AS bucket, count(*) AS n
    FROM request_log GROUP BY 1, 2, 3, 4, 5, 6
  ) AS per_bucket
  GROUP BY 1, 2, 3, 4, 5
) AS h
WHERE r.org_id = h.org_id AND r.api_key_id = h.api_key_id AND r.day = h.day AND r.endpoint = h.endpoint AND r.status = h.status;
--> statement-breakpoint
INSERT INTO request_hourly_rollup (org_id, period_start, api_key_id, endpoint, status, count, latency_buckets, latency_counts)
SELECT org_id, period_start, api_key_id, endpoint, status, sum(n)::bigint, array_agg(bucket ORDER BY bucket), array_agg(n ORDER BY bucket)
FROM (
  SELECT org_id, date_trunc('hour', created_at, 'UTC') AS period_start, api_key_id, endpoint, status, latency_bucket(duration_ms) AS bucket, count(*) AS n
  FROM request_log WHERE created_at >= now() - interval '35 days' GROUP BY 1, 2, 3, 4, 5, 6
) AS per_bucket
GROUP BY 1, 2, 3, 4, 5;
--> statement-breakpoint
INSERT INTO request_minute_rollup (org_id, period_start, api_key_id, endpoint, status, count, latency_buckets, latency_counts)
SELECT org_id, period_start, api_key_id, endpoint, status, sum(n)::bigint, array_agg(bucket ORDER BY bucket), array_agg(n ORDER BY bucket)
FROM (
  SELECT org_id, date_trunc('minute', created_at, 'UTC') AS period_start, api_key_id, endpoint, status, latency_bucket(duration_ms) AS bucket, count(*) AS n
  FROM request_log WHERE created_at >= now() - interval '48 hours' GROUP BY 1, 2, 3, 4, 5, 6
) AS per_bucket
GROUP BY 1, 2, 3, 4, 5;
