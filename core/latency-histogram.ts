/**
 * The latency histogram kept with every rollup row. Bucket b ≥ 1 holds the durations d (whole
 * milliseconds) with γ^(b-2) < d ≤ γ^(b-1), γ = (1 + α) / (1 − α); bucket 0 holds 0 ms. A bucket
 * answers for its durations with 2γ^(b-1) / (1 + γ), which is within α of each of them: the
 * DDSketch mapping (Masson, Rim and Lee, VLDB 2019), chosen over a t-digest because its
 * histograms merge exactly by adding counts per bucket — in SQL, across any rows, in any order —
 * and its error bound holds for every percentile, not only on average. 278 buckets cover 0 ms to
 * 60 s.
 *
 * The database computes buckets and their values (latency_bucket(), latency_bucket_ms() in
 * migration 0019); tests/usage-rollups.test.ts holds those functions to this bound.
 */
export const LATENCY_RELATIVE_ERROR = 0.02;

/** The percentiles the usage views report, in percent (whole numbers, so ranks are computed exactly). */
export const LATENCY_PERCENTILES = { p50: 50, p95: 95, p99: 99 } as const;

/** How many buckets there are: latency_bucket(2³¹ − 1) is 539, so every duration an integer column holds has one. */
export const LATENCY_BUCKET_COUNT = 540;

/** γ of the buckets: (1 + α) / (1 − α), written as SQL writes it (51.0 / 49.0) so both give the same values. */
const GAMMA = 51 / 49;

/** The duration a bucket answers for, in ms: latency_bucket_ms() of migration 0019. */
export function latencyBucketMs(bucket: number): number {
  return bucket === 0 ? 0 : (2 * GAMMA ** (bucket - 1)) / (1 + GAMMA);
}
