-- The request log as the analytics store keeps it (docs/features/analytics-store.md): one row per
-- /v1 request, copied from PostgreSQL's request_log at least once. A copy sent twice has the same
-- sorting key, and ReplacingMergeTree keeps one of them; reads use FINAL, so a duplicate not yet
-- merged away is never counted. `mode` is the key's (keys never change mode), stored so no read
-- joins the keys. `latency_bucket` is PostgreSQL's latency_bucket(duration_ms), so histograms merge
-- with the same buckets as the rollups'.
CREATE TABLE IF NOT EXISTS request_log
(
    id UInt64,
    org_id String,
    mode LowCardinality(String),
    api_key_id String,
    request_id String,
    method LowCardinality(String),
    path String,
    endpoint LowCardinality(String),
    status UInt16,
    duration_ms UInt32,
    latency_bucket UInt16,
    ip Nullable(String),
    user_agent Nullable(String),
    error_code LowCardinality(Nullable(String)),
    trace_id Nullable(UUID),
    created_at DateTime64(6, 'UTC')
)
ENGINE = ReplacingMergeTree
PARTITION BY toYYYYMM(created_at)
ORDER BY (org_id, created_at, request_id)
-- PostgreSQL keeps the current month and the 12 before it; so does the store.
TTL toStartOfMonth(created_at) + INTERVAL 13 MONTH
