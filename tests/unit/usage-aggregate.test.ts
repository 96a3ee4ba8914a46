import { describe, expect, it } from "vitest";
import { latencyBucketMs } from "@/core/latency-histogram";
import { errorsOf, type UsagePart } from "@/core/usage-part";
import { aggregateUsage } from "@/lib/usage/aggregate";

const from = new Date("2026-11-20T00:00:00Z");
const HOUR = 3_600_000;
const part = (overrides: Partial<UsagePart>): UsagePart => {
  const { status = 200, count = 1 } = overrides;
  return {
    periodStart: from.getTime(),
    keyId: "key_a",
    endpoint: "GET /v1/invoices",
    buckets: [10],
    counts: [1],
    ...overrides,
    status,
    count,
    ...errorsOf(status, count),
  };
};
const ms = (bucket: number) => Math.round(latencyBucketMs(bucket) * 100) / 100;

describe("merging usage rows", () => {
  it("gives the nearest-rank percentiles of the merged histograms", () => {
    // 10 requests: 5 in bucket 10, 4 in bucket 20, 1 in bucket 30, over two rows.
    const [row] = aggregateUsage([part({ count: 6, buckets: [10, 20], counts: [5, 1] }), part({ count: 4, buckets: [20, 30], counts: [3, 1] })], {
      from,
      bucket: null,
      groupBy: [],
    });
    expect(row).toMatchObject({ requests: 10, p50Ms: ms(10), p95Ms: ms(30), p99Ms: ms(30) });
    const [ninety] = aggregateUsage([part({ count: 10, buckets: [10, 20, 30], counts: [5, 4, 1] })], { from, bucket: null, groupBy: [] });
    expect(ninety!.p50Ms).toBe(ms(10));
  });

  it("counts 4xx and 5xx, and has no percentiles for rows rolled up without durations", () => {
    const rows = aggregateUsage(
      [
        part({ status: 404, count: 3, buckets: [], counts: [] }),
        part({ status: 503, count: 2, buckets: [], counts: [] }),
        part({ status: 301, count: 1, buckets: [], counts: [] }),
      ],
      { from, bucket: null, groupBy: [] },
    );
    expect(rows).toEqual([
      {
        bucketStart: from.toISOString(),
        keyId: null,
        endpoint: null,
        status: null,
        requests: 6,
        errors4xx: 3,
        errors5xx: 2,
        p50Ms: null,
        p95Ms: null,
        p99Ms: null,
      },
    ]);
  });

  it("orders rows by bucket, key, endpoint and status in code-unit order, and pages after a cursor", () => {
    const parts = [
      part({ periodStart: from.getTime() + HOUR, keyId: "key_A" }),
      part({ keyId: "key_b", endpoint: "POST /v1/invoices" }),
      part({ keyId: "key_B" }),
      part({ keyId: "key_b", endpoint: "GET /v1/invoices" }),
    ];
    const query = { from, bucket: "hour", groupBy: ["key", "endpoint"] } as const;
    const rows = aggregateUsage(parts, query);
    expect(rows.map((row) => `${row.bucketStart.slice(11, 13)} ${row.keyId} ${row.endpoint}`)).toEqual([
      "00 key_B GET /v1/invoices",
      "00 key_b GET /v1/invoices",
      "00 key_b POST /v1/invoices",
      "01 key_A GET /v1/invoices",
    ]);
    const page = aggregateUsage(parts, {
      ...query,
      after: { bucketStart: rows[1]!.bucketStart, keyId: "key_b", endpoint: "GET /v1/invoices", status: null },
      limit: 1,
    });
    expect(page.map((row) => row.endpoint)).toEqual(["POST /v1/invoices"]);
  });
});
