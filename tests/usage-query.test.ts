import { sql } from "drizzle-orm";
import { beforeAll, describe, expect, it } from "vitest";
import { getDb } from "@/db";
import { rowsOf } from "@/db/rows";
import { usageRows, windowPieces } from "@/lib/usage/rows";
import { LATENCY_PERCENTILES, LATENCY_RELATIVE_ERROR } from "@/core/latency-histogram";
import { statusBounds } from "@/core/request-log";
import type { UsageGroup, UsageQuery, UsageRow } from "@/core/usage-query";
import { createOrg, insertKey } from "./helpers/factories";
import { logRequest } from "./helpers/request-log";

const MINUTE = 60_000;
const HOUR = 60 * MINUTE;
const DAY = 24 * HOUR;
const at = (iso: string) => new Date(iso);

describe("a usage window's pieces", () => {
  it("reads whole days from the daily rows, and the hours and minutes at either end from the finer ones", () => {
    const pieces = windowPieces(at("2026-11-20T22:58:00Z"), at("2026-11-23T01:30:00Z")).map(
      ({ grain, from, to }) => `${grain} ${from.toISOString()} ${to.toISOString()}`,
    );
    expect(pieces).toEqual([
      "minute 2026-11-20T22:58:00.000Z 2026-11-20T23:00:00.000Z",
      "hour 2026-11-20T23:00:00.000Z 2026-11-21T00:00:00.000Z",
      "day 2026-11-21T00:00:00.000Z 2026-11-23T00:00:00.000Z",
      "hour 2026-11-23T00:00:00.000Z 2026-11-23T01:00:00.000Z",
      "minute 2026-11-23T01:00:00.000Z 2026-11-23T01:30:00.000Z",
    ]);
    expect(windowPieces(at("2026-11-21T00:00:00Z"), at("2026-11-22T00:00:00Z")).map((piece) => piece.grain)).toEqual(["day"]);
    expect(windowPieces(at("2026-11-21T05:00:00Z"), at("2026-11-21T05:00:00Z"))).toEqual([]);
  });

  it("refuses a window that does not start on a minute", () => {
    expect(() => windowPieces(at("2026-11-21T05:00:30Z"), at("2026-11-21T06:00:00Z"))).toThrow(/start and end on a minute/);
  });
});

describe("usage rows", () => {
  const now = new Date();
  const endpoints = ["GET /v1/invoices", "POST /v1/invoices", "POST /v1/pdf/generate"];
  const statuses = [200, 201, 404, 422, 500];
  let orgId: string;
  let keyIds: string[];
  const sent: { apiKeyId: string; endpoint: string; status: number; durationMs: number; at: Date }[] = [];

  beforeAll(async () => {
    orgId = (await createOrg("pro")).id;
    keyIds = [(await insertKey(orgId)).id, (await insertKey(orgId)).id, (await insertKey(orgId)).id];
    const foreign = await createOrg("pro");
    const foreignKey = (await insertKey(foreign.id)).id;
    // Requests of known keys, endpoints, statuses and durations over the last 3 days, the last ones a
    // moment ago; another organization's beside them.
    const requests = Array.from({ length: 450 }, (_, i) => ({
      orgId,
      apiKeyId: keyIds[i % 3]!,
      endpoint: endpoints[Math.floor(i / 3) % 3]!,
      status: statuses[(i * 7) % 5]!,
      durationMs: ((i * 37) % 200) + (i % 3 === 2 ? 400 : 1),
      at: new Date(now.getTime() - (i < 20 ? i * 100 : Math.floor((((i * 7919) % 1000) / 1000) * 3 * DAY))),
    }));
    await Promise.all([...requests.map((request) => logRequest(request)), logRequest({ orgId: foreign.id, apiKeyId: foreignKey, at: now, status: 500 })]);
    sent.push(...requests);
  });

  /** The request log's own counts for the same window, filters and grouping. */
  async function logCounts(query: UsageQuery, bucketOf: string): Promise<Record<string, unknown>[]> {
    const groups = [
      sql.raw(`${bucketOf} as bucket_start`),
      ...(query.groupBy.includes("key") ? [sql.raw("api_key_id")] : []),
      ...(query.groupBy.includes("endpoint") ? [sql.raw("endpoint")] : []),
      ...(query.groupBy.includes("status") ? [sql.raw("status")] : []),
    ];
    const filters = [
      query.keyId ? sql` and api_key_id = ${query.keyId}` : sql``,
      query.endpoint ? sql` and endpoint = ${query.endpoint}` : sql``,
      query.status ? sql` and status between ${statusBounds(query.status).min} and ${statusBounds(query.status).max}` : sql``,
    ];
    return rowsOf(
      await getDb().execute(sql`
        select ${sql.join(groups, sql`, `)}, count(*)::int as requests,
          (count(*) filter (where status between 400 and 499))::int as errors_4xx, (count(*) filter (where status >= 500))::int as errors_5xx
        from request_log where org_id = ${orgId} and created_at >= ${query.from.toISOString()} and created_at < ${query.to.toISOString()}${sql.join(filters)}
        group by ${sql.join(
          groups.map((_, i) => sql.raw(String(i + 1))),
          sql`, `,
        )} order by ${sql.join(
          groups.map((_, i) => sql.raw(String(i + 1))),
          sql`, `,
        )}`),
    );
  }

  function counted(rows: UsageRow[]) {
    return rows.map(({ keyId, endpoint, status, requests, errors4xx, errors5xx }) => ({ keyId, endpoint, status, requests, errors4xx, errors5xx }));
  }

  function fromLog(rows: Record<string, unknown>[]) {
    return rows.map((row) => ({
      keyId: (row.api_key_id as string | undefined) ?? null,
      endpoint: (row.endpoint as string | undefined) ?? null,
      status: row.status === undefined ? null : Number(row.status),
      requests: row.requests,
      errors4xx: row.errors_4xx,
      errors5xx: row.errors_5xx,
    }));
  }

  const minuteFloor = (date: Date) => new Date(Math.floor(date.getTime() / MINUTE) * MINUTE);
  // A window from an odd minute 3 days ago to the end of this minute: minutes, hours and days all read.
  const window = () => ({ from: new Date(minuteFloor(now).getTime() - 3 * DAY - 17 * MINUTE), to: new Date(minuteFloor(now).getTime() + MINUTE) });
  const groupings: UsageGroup[][] = [[], ["key"], ["endpoint"], ["key", "endpoint"], ["status"], ["key", "endpoint", "status"]];

  it.each(groupings.map((groupBy) => [groupBy.join(" × ") || "nothing", groupBy] as const))(
    "counts the whole window grouped by %s exactly as the log does, requests of the last seconds included",
    async (_, groupBy) => {
      const query: UsageQuery = { orgId, mode: "live", ...window(), bucket: null, groupBy };
      const rows = await usageRows(query);
      expect(counted(rows)).toEqual(fromLog(await logCounts(query, "1")));
      expect(rows.every((row) => row.bucketStart === query.from.toISOString())).toBe(true);
      expect(rows.reduce((sum, row) => sum + row.requests, 0)).toBe(450);
    },
  );

  it.each([
    ["a key", { keyId: "0" }],
    ["an endpoint", { endpoint: "POST /v1/invoices" }],
    ["a status class", { status: "4xx" }],
    ["a status", { status: "500" }],
  ] as const)("filters by %s as the log does", async (_, filter) => {
    const resolved = "keyId" in filter ? { keyId: keyIds[0]! } : filter;
    const query: UsageQuery = { orgId, mode: "live", ...window(), bucket: null, groupBy: ["key", "endpoint", "status"], ...resolved };
    const rows = await usageRows(query);
    expect(rows.length).toBeGreaterThan(0);
    expect(counted(rows)).toEqual(fromLog(await logCounts(query, "1")));
  });

  it.each([
    ["hour", "date_trunc('hour', created_at, 'UTC')", HOUR],
    ["day", "date_trunc('day', created_at, 'UTC')", DAY],
  ] as const)("gives a row per %s and status, equal to the log's", async (bucket, bucketOf, size) => {
    const from = new Date(Math.floor((now.getTime() - 2 * DAY) / size) * size);
    const query: UsageQuery = { orgId, mode: "live", from, to: new Date(Math.ceil((now.getTime() + 1) / size) * size), bucket, groupBy: ["status"] };
    const rows = await usageRows(query);
    const logged = await logCounts(query, bucketOf);
    expect(rows.map((row) => row.bucketStart)).toEqual(logged.map((row) => new Date(row.bucket_start as string).toISOString()));
    expect(counted(rows)).toEqual(fromLog(logged));
  });

  it("gives latency percentiles within the stated error of the exact ones, per key × endpoint", async () => {
    const rows = await usageRows({ orgId, mode: "live", ...window(), bucket: null, groupBy: ["key", "endpoint"] });
    expect(rows).toHaveLength(9);
    for (const row of rows) {
      const durations = sent
        .filter((request) => request.apiKeyId === row.keyId && request.endpoint === row.endpoint)
        .map((request) => request.durationMs)
        .sort((a, b) => a - b);
      for (const [label, percent] of Object.entries(LATENCY_PERCENTILES)) {
        const exact = durations[Math.ceil((percent * durations.length) / 100) - 1]!;
        const estimate = row[`${label}Ms` as "p50Ms"]!;
        // Within the histogram's error, and the 0.005 ms of rounding to the hundredth.
        expect(Math.abs(estimate - exact), `${label} ${row.keyId} ${row.endpoint}`).toBeLessThanOrEqual(LATENCY_RELATIVE_ERROR * exact + 0.005);
      }
    }
  });

  it("answers an organization without traffic, or a window before it, with no rows", async () => {
    const quiet = await createOrg("pro");
    expect(await usageRows({ orgId: quiet.id, mode: "live", ...window(), bucket: null, groupBy: [] })).toEqual([]);
    const before = new Date(minuteFloor(now).getTime() - 10 * DAY);
    expect(await usageRows({ orgId, mode: "live", from: before, to: new Date(before.getTime() + DAY), bucket: "hour", groupBy: [] })).toEqual([]);
  });
});

describe("a bucketed window off the periods' boundaries", () => {
  it("counts the periods that start within it whole, requests not folded yet included, each once across a page's reads", async () => {
    const orgId = (await createOrg("pro")).id;
    const apiKeyId = (await insertKey(orgId)).id;
    const hour = Math.floor((Date.now() - 2 * DAY) / HOUR) * HOUR;
    for (const offset of [10 * MINUTE, 45 * MINUTE, HOUR + 50 * MINUTE]) await logRequest({ orgId, apiKeyId, at: new Date(hour + offset), status: 200 });
    // A page reads 4 periods first: that read ends at 37 past the first hour, between its two requests.
    // The window ends at 20 past the second hour, whose request comes later: its hour starts within.
    const from = new Date(hour + 37 * MINUTE - 4 * HOUR);
    const query: UsageQuery = { orgId, mode: "live", from, to: new Date(hour + HOUR + 20 * MINUTE), bucket: "hour", groupBy: ["status"], limit: 10 };
    expect((await usageRows(query)).map(({ bucketStart, status, requests }) => [bucketStart, status, requests])).toEqual([
      [new Date(hour).toISOString(), 200, 2],
      [new Date(hour + HOUR).toISOString(), 200, 1],
    ]);
  });
});

describe("the 4xx and 5xx classes", () => {
  it("count 400 to 499 as client errors and 500 to 599 as server errors, in the counts and in the status filter", async () => {
    const org = await createOrg("pro");
    const keyId = (await insertKey(org.id)).id;
    const now = new Date();
    // Each status a different number of times, today and two days back (daily, hourly and minute rows alike).
    const times: [number, number][] = [
      [200, 1],
      [399, 1],
      [400, 2],
      [499, 3],
      [500, 4],
      [599, 5],
    ];
    await Promise.all(
      times.flatMap(([status, count]) =>
        Array.from({ length: count }, (_, i) =>
          [now.getTime() - i * 1000, now.getTime() - 2 * DAY - i * 1000].map((ms) => logRequest({ orgId: org.id, apiKeyId: keyId, status, at: new Date(ms) })),
        ).flat(),
      ),
    );
    const window = {
      orgId: org.id,
      mode: "live" as const,
      from: new Date(Math.floor(now.getTime() / DAY) * DAY - 3 * DAY),
      to: new Date(Math.ceil((now.getTime() + 1) / MINUTE) * MINUTE),
      bucket: null,
    };
    const totals = (rows: UsageRow[]) => rows.map((row) => [row.requests, row.errors4xx, row.errors5xx]);
    expect(totals(await usageRows({ ...window, groupBy: [] }))).toEqual([[32, 10, 18]]);
    expect(totals(await usageRows({ ...window, groupBy: [], status: "4xx" }))).toEqual([[10, 10, 0]]);
    expect(totals(await usageRows({ ...window, groupBy: [], status: "5xx" }))).toEqual([[18, 0, 18]]);
    expect((await usageRows({ ...window, groupBy: ["status"] })).map((row) => [row.status, row.requests, row.errors4xx, row.errors5xx])).toEqual([
      [200, 2, 0, 0],
      [399, 2, 0, 0],
      [400, 4, 4, 0],
      [499, 6, 6, 0],
      [500, 8, 0, 8],
      [599, 10, 0, 10],
    ]);
  });
});
