import { sql } from "drizzle-orm";
import { beforeAll, describe, expect, it } from "vitest";
import { getDb } from "@/db";
import { rowsOf } from "@/db/rows";
import type { UsageListDto } from "@/lib/api/schemas/usage";
import { usageWindow } from "@/lib/api/services/usage";
import { HOURLY_ROLLUP_RETENTION_DAYS } from "@/core/usage-grains";
import { apiClient, contractApi, errorOf, itMatchesTheDocument, type ApiClient } from "./helpers/api-contract";
import { insertKey } from "./helpers/factories";
import { logRequest } from "./helpers/request-log";

const api = contractApi();
const DAY = 86_400_000;
const today = new Date(`${new Date().toISOString().slice(0, 10)}T00:00:00Z`);
const daysAgo = (n: number) => new Date(today.getTime() - n * DAY).toISOString().slice(0, 10);

describe("GET /v1/usage", () => {
  let client: ApiClient;
  let keyIds: string[];

  async function usage(query: string): Promise<UsageListDto> {
    const response = await client.call(`/v1/usage?${query}`);
    expect(response.status, query).toBe(200);
    return (await response.json()) as UsageListDto;
  }

  /** The request log's counts per day, key, endpoint and status since `from`, as /v1/usage words them. */
  async function logged(from: string) {
    const rows = rowsOf<{ day: string; key_id: string; endpoint: string; status: number; requests: number; errors_4xx: number; errors_5xx: number }>(
      await getDb().execute(sql`
        select to_char(date_trunc('day', created_at, 'UTC'), 'YYYY-MM-DD') as day, api_key_id as key_id, endpoint, status, count(*)::int as requests,
          (count(*) filter (where status between 400 and 499))::int as errors_4xx, (count(*) filter (where status >= 500))::int as errors_5xx
        from request_log where org_id = ${client.org.id} and created_at >= ${from}
        group by 1, 2, 3, 4 order by 1, 2, 3, 4`),
    );
    return rows.map(({ day, ...row }) => ({ object: "usage_row", bucket_start: `${day}T00:00:00.000Z`, ...row }));
  }

  beforeAll(async () => {
    client = await apiClient(api);
    keyIds = [(await insertKey(client.org.id)).id, (await insertKey(client.org.id)).id];
    const at = (daysBack: number, ms: number) => new Date(Date.now() - daysBack * DAY - ms);
    await Promise.all([
      ...Array.from({ length: 40 }, (_, i) =>
        logRequest({
          orgId: client.org.id,
          apiKeyId: keyIds[i % 2]!,
          at: at(i % 4, i * 1000),
          endpoint: "GET /v1/invoices",
          status: i % 10 === 0 ? 500 : 200,
          durationMs: 10 + i,
        }),
      ),
      ...Array.from({ length: 12 }, (_, i) =>
        logRequest({
          orgId: client.org.id,
          apiKeyId: keyIds[0]!,
          at: at(0, i * 10),
          endpoint: "POST /v1/invoices",
          status: i % 3 === 0 ? 422 : 201,
          durationMs: 30 + i,
        }),
      ),
    ]);
  });

  it("gives a row per day, key, endpoint and status that equals the request log, the calls of a moment ago included", async () => {
    const expected = await logged(daysAgo(5));
    const body = await usage(`from=${daysAgo(5)}&group_by=key,endpoint,status&limit=1000`);
    expect(body.has_more).toBe(false);
    expect(
      body.data.map(({ object, bucket_start, key_id, endpoint, status, requests, errors_4xx, errors_5xx }) => ({
        object,
        bucket_start,
        key_id,
        endpoint,
        status,
        requests,
        errors_4xx,
        errors_5xx,
      })),
    ).toEqual(expected);
    for (const row of body.data) expect(row.p50_ms! <= row.p95_ms! && row.p95_ms! <= row.p99_ms!).toBe(true);
  });

  it("counts its own earlier calls, as ordinary /v1 calls", async () => {
    const before = (await usage(`from=${daysAgo(0)}&endpoint=${encodeURIComponent("GET /v1/usage")}`)).data[0]?.requests ?? 0;
    const after = (await usage(`from=${daysAgo(0)}&endpoint=${encodeURIComponent("GET /v1/usage")}`)).data[0]!.requests;
    expect(after).toBe(before + 1);
  });

  it("filters by key and status class, and gives the whole day's latency percentiles", async () => {
    const body = await usage(`from=${daysAgo(3)}&key_id=${keyIds[1]}&status=5xx`);
    const expected = (await logged(daysAgo(3))).filter((row) => row.key_id === keyIds[1] && row.status >= 500);
    expect(body.data.map((row) => [row.bucket_start, row.requests, row.errors_5xx])).toEqual(
      [...new Set(expected.map((row) => row.bucket_start))].map((day) => {
        const n = expected.filter((row) => row.bucket_start === day).reduce((sum, row) => sum + row.requests, 0);
        return [day, n, n];
      }),
    );
    expect(body.data.every((row) => row.key_id === null && row.p50_ms !== null)).toBe(true);
  });

  it("gives hourly rows on the hour", async () => {
    const body = await usage(`from=${new Date(Date.now() - 5 * 3600_000).toISOString()}&bucket=hour`);
    expect(body.data.length).toBeGreaterThan(0);
    expect(body.data.every((row) => row.bucket_start.endsWith(":00:00.000Z"))).toBe(true);
  });

  it("pages through the rows with next_cursor, each row once", async () => {
    const whole = await usage(`from=${daysAgo(5)}&group_by=key,endpoint,status&limit=1000`);
    const walked: UsageListDto["data"] = [];
    let cursor: string | null = null;
    do {
      const page: UsageListDto = await usage(`from=${daysAgo(5)}&group_by=key,endpoint,status&limit=3${cursor ? `&starting_after=${cursor}` : ""}`);
      expect(page.data.length).toBeLessThanOrEqual(3);
      walked.push(...page.data);
      cursor = page.next_cursor;
    } while (cursor);
    // The paging calls themselves are logged today under GET /v1/usage: compare the other rows.
    const others = (rows: UsageListDto["data"]) => rows.filter((row) => row.endpoint !== "GET /v1/usage");
    expect(others(walked)).toEqual(others(whole.data));
    expect(new Set(walked.map((row) => JSON.stringify([row.bucket_start, row.key_id, row.endpoint, row.status]))).size).toBe(walked.length);
  });

  it.each([
    ["no from", "bucket=day", "query.from"],
    ["a group that does not exist", `from=${daysAgo(1)}&group_by=key,country`, "query.group_by"],
    ["a status that is no status", `from=${daysAgo(1)}&status=6xx`, "query.status"],
    ["a to before the from", `from=${daysAgo(1)}&to=${daysAgo(3)}`, "query.to"],
    ["hourly rows older than they are kept", `from=${daysAgo(HOURLY_ROLLUP_RETENTION_DAYS + 2)}&bucket=hour`, "query.from"],
    ["daily rows older than the log", `from=${daysAgo(500)}`, "query.from"],
    ["a cursor it did not give", `from=${daysAgo(1)}&starting_after=not-a-cursor`, "query.starting_after"],
    ["a limit beyond 1000", `from=${daysAgo(1)}&limit=1001`, "query.limit"],
  ])("refuses %s with 400 validation_failed naming the parameter", async (_, query, path) => {
    const response = await client.call(`/v1/usage?${query}`);
    expect(response.status).toBe(400);
    const error = await errorOf(response);
    expect(error.code).toBe("validation_failed");
    expect(error.details?.map((detail) => detail.path)).toContain(path);
  });

  async function refusal(query: string) {
    const response = await client.call(`/v1/usage?${query}`);
    expect(response.status, query).toBe(400);
    const error = await errorOf(response);
    expect(error.code).toBe("validation_failed");
    return error.details;
  }

  it("says that from is required and what it takes, and what a from it cannot read should look like", async () => {
    expect(await refusal("bucket=day")).toEqual([
      { path: "query.from", message: "from is required: an ISO 8601 date or date-time, e.g. 2026-11-01 or 2026-11-01T13:00:00Z." },
    ]);
    expect(await refusal("from=yesterday")).toEqual([
      {
        path: "query.from",
        message: "from must be an ISO 8601 date or date-time, e.g. 2026-11-01 or 2026-11-01T13:00:00Z (a date-time with its offset, Z or +01:00).",
      },
    ]);
  });

  it.each([
    ["to", `from=${daysAgo(1)}&to=2200-01-01`],
    ["to", `from=${daysAgo(1)}&to=2100-01-01T00:00:00Z`],
    ["from", "from=1999-12-31T23:00:00Z"],
  ])("refuses a %s outside 2000-01-01 to 2099-12-31 (%s)", async (name, query) => {
    expect(await refusal(query)).toEqual([{ path: `query.${name}`, message: `${name} must be on a day from 2000-01-01 to 2099-12-31.` }]);
  });

  it("answers the last hour by the hour when no bucket is named, not with the whole day", async () => {
    const from = new Date(Date.now() - 3600_000);
    const body = await usage(`from=${from.toISOString()}`);
    const hourStart = Math.floor(from.getTime() / 3600_000) * 3600_000;
    expect(body.data.length).toBeGreaterThan(0);
    for (const row of body.data) expect(Date.parse(row.bucket_start)).toBeGreaterThanOrEqual(hourStart);
    // Too far back for hours: the refusal says why hours were chosen.
    expect(await refusal(`from=${daysAgo(HOURLY_ROLLUP_RETENTION_DAYS + 2)}T10:00:00Z`)).toEqual([
      {
        path: "query.from",
        message: `Usage reaches back ${HOURLY_ROLLUP_RETENTION_DAYS} days, by the hour (the bucket when from or to is inside a day): ask for bucket=day, or a later from.`,
      },
    ]);
  });

  it("picks hours when from or to falls inside a UTC day, days for whole days and for a to left to now", () => {
    const now = new Date("2026-11-26T10:15:00Z");
    const window = (from: string, to?: string) => {
      const { from: start, to: end, bucket } = usageWindow({ from, to }, now);
      return [start.toISOString(), end.toISOString(), bucket];
    };
    expect(window("2026-11-26T09:15:00Z")).toEqual(["2026-11-26T09:00:00.000Z", "2026-11-26T11:00:00.000Z", "hour"]);
    expect(window("2026-11-25", "2026-11-25T12:30:00+02:00")).toEqual(["2026-11-25T00:00:00.000Z", "2026-11-25T11:00:00.000Z", "hour"]);
    expect(window("2026-11-20")).toEqual(["2026-11-20T00:00:00.000Z", "2026-11-27T00:00:00.000Z", "day"]);
    expect(window("2026-11-20T00:00:00Z", "2026-11-22T01:00:00+01:00")).toEqual(["2026-11-20T00:00:00.000Z", "2026-11-22T00:00:00.000Z", "day"]);
    expect(usageWindow({ from: "2026-11-26T09:15:00Z", bucket: "day" }, now).bucket).toBe("day");
  });

  it("answers a key of another organization with no rows", async () => {
    const other = await apiClient(api);
    const body = (await (await other.call(`/v1/usage?from=${daysAgo(5)}&key_id=${keyIds[0]}`)).json()) as UsageListDto;
    expect(body.data).toEqual([]);
  });

  itMatchesTheDocument(api, 15);
});
