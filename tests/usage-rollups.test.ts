import { sql } from "drizzle-orm";
import { beforeAll, describe, expect, it } from "vitest";
import { getDb } from "@/db";
import { maintainRequestLog } from "@/db/partitions";
import { rowsOf } from "@/db/rows";
import { usageRows } from "@/lib/usage/rows";
import { foldPendingRollups } from "@/db/rollups/fold";
import { rebuildRollups } from "@/db/rollups/statements";
import { LATENCY_PERCENTILES, LATENCY_RELATIVE_ERROR, latencyBucketMs } from "@/core/latency-histogram";
import { aggregateUsage } from "@/lib/usage/aggregate";
import { partsOf, ROLLUP_PART_COLUMNS, ROLLUP_TABLES } from "@/db/rollups/tables";
import type { UsageGroup } from "@/core/usage-query";
import { HOURLY_ROLLUP_RETENTION_DAYS, MINUTE_ROLLUP_RETENTION_HOURS, ROLLUP_GRAINS } from "@/core/usage-grains";
import { createOrg, insertKey } from "./helpers/factories";
import { logRequest } from "./helpers/request-log";

const HOUR = 3600_000;

async function select<T>(query: ReturnType<typeof sql>): Promise<T[]> {
  return rowsOf<T>(await getDb().execute(query));
}

/** The exact nearest-rank percentile: the ceil(percent × n / 100)-th smallest duration. */
function exactPercentile(durations: number[], percent: number): number {
  const sorted = [...durations].sort((a, b) => a - b);
  return sorted[Math.ceil((percent * sorted.length) / 100) - 1]!;
}

/** A deterministic generator, so a failure can be replayed. */
function random(seed: number): () => number {
  let state = seed;
  return () => {
    state = (state * 1_103_515_245 + 12_345) % 2 ** 31;
    return state / 2 ** 31;
  };
}

describe("the latency histogram's buckets (SQL functions of migration 0019)", () => {
  it("answer for every whole millisecond from 0 to 100 s within the stated relative error", async () => {
    const [row] = await select<{ worst: number; descending: number }>(sql`
      select max(abs(latency_bucket_ms(latency_bucket(ms)) - ms) / greatest(ms, 1))::float8 as worst,
             count(*) filter (where latency_bucket(ms) < latency_bucket(ms - 1))::int as descending
      from generate_series(1, 100000) as ms`);
    expect(row!.worst).toBeLessThanOrEqual(LATENCY_RELATIVE_ERROR + 1e-12);
    expect(row!.descending).toBe(0);
    const [zero] = await select<{ bucket: number; ms: number }>(sql`select latency_bucket(0) as bucket, latency_bucket_ms(latency_bucket(0))::float8 as ms`);
    expect(zero).toEqual({ bucket: 0, ms: 0 });
  });

  it("merge two histograms by adding their counts per bucket", async () => {
    const [merged] = await select<{ buckets: number[]; counts: number[] }>(sql`
      select buckets, counts::int[] as counts from latency_merge('{1,5}'::int2[], '{2,3}'::int8[], '{5,9}'::int2[], '{1,1}'::int8[])`);
    expect(merged).toEqual({ buckets: [1, 5, 9], counts: [2, 4, 1] });
    const [withEmpty] = await select<{ buckets: number[]; counts: number[] }>(sql`
      select buckets, counts::int[] as counts from latency_merge('{}'::int2[], '{}'::int8[], '{7}'::int2[], '{4}'::int8[])`);
    expect(withEmpty).toEqual({ buckets: [7], counts: [4] });
  });

  it("have the values the application gives them (core/latency-histogram.ts)", async () => {
    const values = await select<{ bucket: number; ms: number }>(
      sql`select b as bucket, latency_bucket_ms(b::int2)::float8 as ms from generate_series(0, 600) as b`,
    );
    for (const { bucket, ms } of values) expect(Math.abs(latencyBucketMs(bucket) - ms), `bucket ${bucket}`).toBeLessThanOrEqual(ms * 1e-12);
  });
});

describe("rollups kept by the request-log writer", () => {
  const now = new Date();
  const endpoints = ["GET /v1/invoices", "POST /v1/pdf/generate", "GET /v1/customers/{id}"];
  let orgId: string;
  let keyIds: string[];
  const written: { apiKeyId: string; endpoint: string; status: number; durationMs: number }[] = [];

  beforeAll(async () => {
    orgId = (await createOrg("pro")).id;
    keyIds = [(await insertKey(orgId)).id, (await insertKey(orgId)).id];
    const next = random(7);
    // 600 requests over the last 40 hours, sent concurrently so the writer batches them: a
    // log-normal body of durations (a few ms for reads, hundreds for PDFs) with a tail of slow ones.
    const requests = Array.from({ length: 600 }, (_, i) => {
      const endpoint = endpoints[i % endpoints.length]!;
      const base = endpoint.startsWith("POST /v1/pdf") ? 250 : 8;
      const tail = next() < 0.03 ? 20 : 1;
      const durationMs = Math.round(base * tail * Math.exp((next() - 0.5) * 2));
      const status = next() < 0.1 ? 404 : next() < 0.05 ? 500 : 200;
      return { orgId, apiKeyId: keyIds[i % 2]!, endpoint, status, durationMs, at: new Date(now.getTime() - Math.floor(next() * 40 * HOUR)) };
    });
    await Promise.all(requests.map((request) => logRequest(request)));
    written.push(...requests);
  });

  /** Each grain's rows once the pending requests are folded, and what they should be: request_log grouped the same way. */
  async function rollupAndLog(grain: (typeof ROLLUP_GRAINS)[number]) {
    await foldPendingRollups(getDb());
    const { table, period, periodOf } = ROLLUP_TABLES[grain];
    const columns = sql.raw(`api_key_id, ${period}::text as period, endpoint, status`);
    const order = sql.raw("order by 1, 2, 3, 4");
    const rolled = await select(sql`
      select ${columns}, count::int as count, latency_buckets as buckets, latency_counts::int[] as counts
      from ${sql.identifier(table)} where org_id = ${orgId} ${order}`);
    const logged = await select(sql`
      select ${columns}, sum(n)::int as count, array_agg(bucket order by bucket) as buckets, array_agg(n order by bucket)::int[] as counts
      from (select api_key_id, ${sql.raw(periodOf)} as ${sql.raw(period)}, endpoint, status, latency_bucket(duration_ms) as bucket, count(*) as n
            from request_log where org_id = ${orgId} group by 1, 2, 3, 4, 5) as per_bucket
      group by 1, 2, 3, 4 ${order}`);
    return { rolled, logged };
  }

  it.each(ROLLUP_GRAINS)("keeps the %s rollups equal to the log: a count and a histogram per key, endpoint, status and period", async (grain) => {
    const { rolled, logged } = await rollupAndLog(grain);
    expect(rolled.length).toBeGreaterThan(grain === "day" ? 10 : 100);
    expect(rolled).toEqual(logged);
  });

  it("gives percentiles, merged from hourly rows, within the stated error of the exact ones from the raw rows", async () => {
    const groupings: { name: string; of: (row: (typeof written)[number]) => string; groupBy: UsageGroup[] }[] = [
      { name: "the organization", of: () => "all", groupBy: [] },
      { name: "key", of: (row) => row.apiKeyId, groupBy: ["key"] },
      { name: "endpoint", of: (row) => row.endpoint, groupBy: ["endpoint"] },
      { name: "key × endpoint", of: (row) => `${row.apiKeyId} ${row.endpoint}`, groupBy: ["key", "endpoint"] },
      { name: "status", of: (row) => String(row.status), groupBy: ["status"] },
    ];
    let compared = 0;
    await foldPendingRollups(getDb());
    const parts = partsOf(await getDb().execute(sql`select 0 as period_ms, ${ROLLUP_PART_COLUMNS} from request_hourly_rollup where org_id = ${orgId}`));
    for (const { name, of, groupBy } of groupings) {
      const merged = aggregateUsage(parts, { from: now, bucket: null, groupBy }).map((row) => ({
        group: of({ apiKeyId: row.keyId ?? "", endpoint: row.endpoint ?? "", status: row.status ?? 0, durationMs: 0 }),
        p50: row.p50Ms!,
        p95: row.p95Ms!,
        p99: row.p99Ms!,
      }));
      for (const row of merged) {
        const durations = written.filter((request) => of(request) === row.group).map((request) => request.durationMs);
        expect(durations.length, `${name} ${row.group}`).toBeGreaterThan(0);
        for (const [label, percent] of Object.entries(LATENCY_PERCENTILES)) {
          const exact = exactPercentile(durations, percent);
          const estimate = row[label as keyof typeof LATENCY_PERCENTILES];
          expect(Math.abs(estimate - exact), `${label} of ${name} ${row.group}: ${estimate} vs ${exact}`).toBeLessThanOrEqual(
            LATENCY_RELATIVE_ERROR * exact + 1e-9,
          );
          compared++;
        }
      }
    }
    // 1 + 2 keys + 3 endpoints + 6 pairs + 3 statuses, three percentiles each.
    expect(compared).toBe(15 * 3);
  });

  it("rebuilds from the log the same rows the writer kept", async () => {
    const kept = await Promise.all(ROLLUP_GRAINS.map((grain) => rollupAndLog(grain).then(({ rolled }) => rolled)));
    for (const grain of ROLLUP_GRAINS) await getDb().execute(sql`delete from ${sql.identifier(ROLLUP_TABLES[grain].table)} where org_id = ${orgId}`);
    await rebuildRollups(getDb(), [orgId], now);
    const rebuilt = await Promise.all(ROLLUP_GRAINS.map((grain) => rollupAndLog(grain).then(({ rolled }) => rolled)));
    expect(rebuilt).toEqual(kept);
  });
});

describe("requests pending for the minute and hour rollups", () => {
  const minuteCounts = async (orgId: string) =>
    select<{ rolled: number; hourly: number; pending: number; logged: number }>(sql`
      select (select coalesce(sum(count), 0) from request_minute_rollup where org_id = ${orgId})::int as rolled,
             (select coalesce(sum(count), 0) from request_hourly_rollup where org_id = ${orgId})::int as hourly,
             (select count(*) from request_rollup_pending where org_id = ${orgId})::int as pending,
             (select count(*) from request_log where org_id = ${orgId})::int as logged`).then(([row]) => row!);
  const lastHour = (orgId: string, bucket: "minute" | null) => {
    const to = new Date(Math.ceil((Date.now() + 1) / 60_000) * 60_000);
    return usageRows({ orgId, mode: "live", from: new Date(to.getTime() - HOUR), to, bucket, groupBy: [] });
  };

  it("are counted by every read before they are folded, and once after", async () => {
    const orgId = (await createOrg("pro")).id;
    const keyId = (await insertKey(orgId)).id;
    await Promise.all(Array.from({ length: 25 }, (_, i) => logRequest({ orgId, apiKeyId: keyId, at: new Date(Date.now() - i * 1000), durationMs: 5 + i })));
    // Another test file's fold may have run meanwhile: what matters is that the two add up.
    const before = await minuteCounts(orgId);
    expect(before.rolled + before.pending).toBe(25);
    const [whole] = await lastHour(orgId, null);
    expect([whole!.requests, whole!.p50Ms]).toEqual([25, expect.any(Number)]);
    expect((await lastHour(orgId, "minute")).reduce((sum, row) => sum + row.requests, 0)).toBe(25);
    await foldPendingRollups(getDb());
    expect(await minuteCounts(orgId)).toMatchObject({ rolled: 25, hourly: 25, pending: 0, logged: 25 });
    expect(await lastHour(orgId, null)).toEqual([whole]);
  });

  it("are folded exactly once while requests keep coming and folds run at once", async () => {
    const orgId = (await createOrg("pro")).id;
    const keyId = (await insertKey(orgId)).id;
    let folding = true;
    const folds = Array.from({ length: 4 }, async () => {
      while (folding) await foldPendingRollups(getDb());
    });
    await Promise.all(
      Array.from({ length: 300 }, (_, i) =>
        logRequest({ orgId, apiKeyId: keyId, at: new Date(Date.now() - (i % 50) * 1000), status: i % 7 === 0 ? 500 : 200 }),
      ),
    );
    folding = false;
    await Promise.all(folds);
    await foldPendingRollups(getDb());
    expect(await minuteCounts(orgId)).toMatchObject({ rolled: 300, hourly: 300, pending: 0, logged: 300 });
  });
});

describe("rollup retention", () => {
  it(`keeps minute rows ${MINUTE_ROLLUP_RETENTION_HOURS} hours and hourly rows ${HOURLY_ROLLUP_RETENTION_DAYS} days (daily rows go with the log's partitions)`, async () => {
    const now = new Date();
    const orgId = (await createOrg("pro")).id;
    const ago = (hours: number) => new Date(now.getTime() - hours * HOUR).toISOString();
    const cases = [
      { table: "request_minute_rollup", kept: ago(MINUTE_ROLLUP_RETENTION_HOURS - 1), dropped: ago(MINUTE_ROLLUP_RETENTION_HOURS + 1) },
      { table: "request_hourly_rollup", kept: ago(HOURLY_ROLLUP_RETENTION_DAYS * 24 - 1), dropped: ago(HOURLY_ROLLUP_RETENTION_DAYS * 24 + 1) },
    ];
    for (const { table, kept, dropped } of cases) {
      for (const at of [kept, dropped]) {
        await getDb()
          .execute(sql`insert into ${sql.identifier(table)} (org_id, period_start, api_key_id, endpoint, status, count, latency_buckets, latency_counts)
          values (${orgId}, ${at}, 'key_x', 'GET /v1/invoices', 200, 1, '{5}', '{1}')`);
      }
    }
    await maintainRequestLog(getDb(), now);
    for (const { table, kept } of cases) {
      const rows = await select<{ at: string }>(sql`select period_start as at from ${sql.identifier(table)} where org_id = ${orgId}`);
      expect(
        rows.map((row) => new Date(row.at).toISOString()),
        table,
      ).toEqual([kept]);
    }
  });
});
