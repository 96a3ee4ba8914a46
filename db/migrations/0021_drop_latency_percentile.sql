-- Usage reads merge histograms and take their percentiles in the application now
-- (core/usage-aggregate.ts): a call of this function per group and percentile cost more than the
-- whole merge there. latency_bucket_ms() stays: core/latency-histogram.ts is held to it.
DROP FUNCTION latency_percentile(smallint[], bigint[], integer);
