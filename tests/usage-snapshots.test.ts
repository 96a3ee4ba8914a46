import { sql } from "drizzle-orm";
import { beforeAll, describe, expect, it } from "vitest";
import { getDb } from "@/db";
import { rowsOf } from "@/db/rows";
import { usageRows } from "@/lib/usage/rows";
import { foldPendingRollups } from "@/db/rollups/fold";
import { rebuildRollups } from "@/db/rollups/statements";
import { dropExpiredSnapshots } from "@/db/rollups/snapshots";
import { buildUsageSnapshots, SNAPSHOT_GRACE_MS } from "@/lib/usage/snapshots";
import { SNAPSHOT_LEVEL_NAMES } from "@/core/usage-snapshot-levels";
import type { UsageGroup, UsageQuery } from "@/core/usage-query";
import { createOrg, insertKey } from "./helpers/factories";
import { logRequest } from "./helpers/request-log";

const MINUTE = 60_000;
const HOUR = 60 * MINUTE;
const DAY = 24 * HOUR;

async function select<T>(query: ReturnType<typeof sql>): Promise<T[]> {
  return rowsOf<T>(await getDb().execute(query));
}

describe("usage snapshots of closed hours and days", () => {
  const now = new Date();
  const today = Math.floor(now.getTime() / DAY) * DAY;
  const endOfMinute = Math.ceil((now.getTime() + 1) / MINUTE) * MINUTE;
  const endpoints = ["GET /v1/invoices", "POST /v1/invoices", "GET /v1/customers/{id}"];
  const statuses = [200, 201, 404, 429, 500];
  let orgId: string;
  let keyIds: string[];
  const FOREIGN_ENDPOINT = "DELETE /v1/customers/{id}";
  let foreign: { orgId: string; keyId: string };
  /** The days with traffic that have ended SNAPSHOT_GRACE_MS before `now`: five, but for the first minutes after midnight, when yesterday is not yet closed. */
  let closedDaysWithTraffic = 0;

  beforeAll(async () => {
    orgId = (await createOrg("pro")).id;
    keyIds = [(await insertKey(orgId)).id, (await insertKey(orgId)).id, (await insertKey(orgId)).id];
    const foreignOrg = await createOrg("pro");
    foreign = { orgId: foreignOrg.id, keyId: (await insertKey(foreignOrg.id)).id };
    // Six whole UTC days of traffic before today with a quiet one (three days ago), and today's up to
    // a moment ago; another organization's a moment ago and two days back, so that it has a closed
    // day of its own. The span starts at a day's start, so the count of days with traffic does not
    // depend on the hour the test runs (spread back from now, a run near midnight left the sixth
    // day without a request).
    const since = today - 6 * DAY;
    const requests = Array.from({ length: 600 }, (_, i) => {
      let at = i < 30 ? now.getTime() - i * 1000 : since + Math.floor((((i * 7919) % 1000) / 1000) * (now.getTime() - since));
      if (Math.floor(at / DAY) * DAY === today - 3 * DAY) at -= DAY;
      return {
        orgId,
        apiKeyId: keyIds[i % 3]!,
        endpoint: endpoints[Math.floor(i / 3) % 3]!,
        status: statuses[(i * 7) % 5]!,
        durationMs: ((i * 37) % 300) + (i % 3 === 2 ? 500 : 1),
        at: new Date(at),
      };
    });
    closedDaysWithTraffic = new Set(
      requests.map(({ at }) => Math.floor(at.getTime() / DAY) * DAY).filter((day) => day + DAY <= now.getTime() - SNAPSHOT_GRACE_MS),
    ).size;
    await Promise.all([
      ...requests.map((request) => logRequest(request)),
      ...[now, new Date(now.getTime() - 2 * DAY)].map((at) =>
        logRequest({ orgId: foreign.orgId, apiKeyId: foreign.keyId, endpoint: FOREIGN_ENDPOINT, at, status: 500 }),
      ),
    ]);
    await foldPendingRollups(getDb());
  });

  /** Queries of every shape the Usage page and /v1/usage ask: windows over whole days, from the quiet day, rolling; every grouping and filter; series and pages. */
  function queries(): UsageQuery[] {
    const windows = [
      { from: new Date(today - 5 * DAY), to: new Date(today + DAY) },
      { from: new Date(today - 3 * DAY), to: new Date(today) },
      { from: new Date(today - 2 * DAY), to: new Date(today + DAY) },
      { from: new Date(endOfMinute - DAY), to: new Date(today + DAY) },
      { from: new Date(endOfMinute - DAY), to: new Date(endOfMinute) },
    ];
    const groupings: UsageGroup[][] = [[], ["key"], ["endpoint"], ["key", "endpoint"], ["status"], ["key", "endpoint", "status"]];
    const filters: Partial<UsageQuery>[] = [
      {},
      { keyId: keyIds[1] },
      { endpoint: endpoints[2] },
      { method: "POST" },
      { status: "4xx" },
      { status: "500", keyId: keyIds[0] },
    ];
    const list: UsageQuery[] = [];
    for (const window of windows) {
      for (const groupBy of groupings) list.push({ orgId, mode: "live", ...window, bucket: null, groupBy });
      for (const filter of filters) list.push({ orgId, mode: "live", ...window, bucket: null, groupBy: ["key", "endpoint"], ...filter });
    }
    for (const bucket of ["day", "hour"] as const) {
      const from = new Date(bucket === "day" ? today - 5 * DAY : today - 2 * DAY);
      for (const filter of filters) list.push({ orgId, mode: "live", from, to: new Date(today + DAY), bucket, groupBy: [], ...filter });
      list.push({ orgId, mode: "live", from, to: new Date(today + DAY), bucket, groupBy: ["key", "status"], limit: 7 });
    }
    return list;
  }

  it("give every query the answer the rollup rows give, percentiles included", async () => {
    const fromRows = await Promise.all(queries().map((query) => usageRows(query)));
    expect(fromRows.flat().length).toBeGreaterThan(500);

    await buildUsageSnapshots(getDb(), now);
    const [documents] = await select<{ hours: number; days: number; cumulative: number }>(sql`
      select count(*) filter (where grain = 'hour')::int as hours, count(*) filter (where grain = 'day' and kind = 'period')::int as days,
             count(*) filter (where kind = 'cumulative')::int as cumulative
      from usage_snapshot where org_id = ${orgId}`);
    // Five days with traffic before today (the quiet one has none), each at every level.
    expect(closedDaysWithTraffic).toBe(now.getTime() - today < SNAPSHOT_GRACE_MS ? 4 : 5);
    expect(documents!.days).toBe(closedDaysWithTraffic * SNAPSHOT_LEVEL_NAMES.length);
    expect(documents!.cumulative).toBe(closedDaysWithTraffic * SNAPSHOT_LEVEL_NAMES.length);
    expect(documents!.hours).toBeGreaterThan(100 * SNAPSHOT_LEVEL_NAMES.length);

    const fromSnapshots = await Promise.all(queries().map((query) => usageRows(query)));
    for (const [i, query] of queries().entries()) expect(fromSnapshots[i], JSON.stringify(query)).toEqual(fromRows[i]);
  });

  it("never give one organization another's documents", async () => {
    const [theirs] = await select<{ days: number }>(sql`select count(*)::int as days from usage_snapshot where org_id = ${foreign.orgId} and grain = 'day'`);
    expect(theirs!.days).toBeGreaterThan(0);
    for (const query of queries()) {
      for (const row of await usageRows(query)) {
        expect(row.keyId === null || keyIds.includes(row.keyId), JSON.stringify(query)).toBe(true);
        expect(row.endpoint, JSON.stringify(query)).not.toBe(FOREIGN_ENDPOINT);
      }
    }
  });

  it("snapshot a period only once it has been over for the grace, and each once when two processes build at the same time", async () => {
    await rebuildRollups(getDb(), [orgId], now);
    const hourStart = Math.floor(now.getTime() / HOUR) * HOUR;
    await buildUsageSnapshots(getDb(), new Date(hourStart + SNAPSHOT_GRACE_MS - 1000));
    const [early] = await select<{ hours: string; days: string }>(
      sql`select hours_through::text as hours, days_through::text as days from usage_snapshot_mark where org_id = ${orgId}`,
    );
    expect(new Date(early!.hours).getTime()).toBe(hourStart - HOUR);

    await rebuildRollups(getDb(), [orgId], now);
    await Promise.all([buildUsageSnapshots(getDb(), now), buildUsageSnapshots(getDb(), now)]);
    const [late] = await select<{ hours: string; days: string }>(
      sql`select hours_through::text as hours, days_through::text as days from usage_snapshot_mark where org_id = ${orgId}`,
    );
    expect(new Date(late!.hours).getTime()).toBe(Math.floor((now.getTime() - SNAPSHOT_GRACE_MS) / HOUR) * HOUR);
    expect(new Date(late!.days).getTime()).toBe(Math.floor((now.getTime() - SNAPSHOT_GRACE_MS) / DAY) * DAY);
    const [{ cumulative }] = (await select<{ cumulative: number }>(
      sql`select count(*)::int as cumulative from usage_snapshot where org_id = ${orgId} and kind = 'cumulative'`,
    )) as [{ cumulative: number }];
    expect(cumulative).toBe(closedDaysWithTraffic * SNAPSHOT_LEVEL_NAMES.length);
  });

  it("are dropped with the rollups they came from, but for the last cumulative day before the oldest kept", async () => {
    await dropExpiredSnapshots(getDb(), new Date(now.getTime() + 420 * DAY));
    const left = await select<{ grain: string; kind: string; documents: number }>(sql`
      select grain, kind, count(*)::int as documents from usage_snapshot where org_id = ${orgId} group by 1, 2 order by 1, 2`);
    expect(left).toEqual([{ grain: "day", kind: "cumulative", documents: SNAPSHOT_LEVEL_NAMES.length }]);
  });
});

describe("the grace after a period ends", () => {
  it("leaves an hour and a day that ended a minute ago to the rollup rows, and snapshots them three minutes after", async () => {
    const orgId = (await createOrg("pro")).id;
    const apiKeyId = (await insertKey(orgId)).id;
    const today = Math.floor(Date.now() / DAY) * DAY;
    // Yesterday's last hour and an earlier one.
    await Promise.all([today - 30 * MINUTE, today - 5 * HOUR].map((at) => logRequest({ orgId, apiKeyId, at: new Date(at) })));
    await foldPendingRollups(getDb());
    const state = async () => {
      const [mark] = await select<{ hours: string; days: string }>(
        sql`select hours_through::text as hours, days_through::text as days from usage_snapshot_mark where org_id = ${orgId}`,
      );
      const documents = await select<{ grain: string; period: string }>(sql`
        select distinct grain, period_start::text as period from usage_snapshot where org_id = ${orgId} and kind = 'period' order by 1, 2`);
      return {
        hours: new Date(mark!.hours).getTime(),
        days: new Date(mark!.days).getTime(),
        documents: documents.map(({ grain, period }) => `${grain} ${new Date(period).toISOString()}`),
      };
    };

    await buildUsageSnapshots(getDb(), new Date(today + MINUTE));
    expect(await state()).toEqual({ hours: today - HOUR, days: today - DAY, documents: [`hour ${new Date(today - 5 * HOUR).toISOString()}`] });

    await buildUsageSnapshots(getDb(), new Date(today + 3 * MINUTE));
    expect(await state()).toEqual({
      hours: today,
      days: today,
      documents: [
        `day ${new Date(today - DAY).toISOString()}`,
        `hour ${new Date(today - 5 * HOUR).toISOString()}`,
        `hour ${new Date(today - HOUR).toISOString()}`,
      ],
    });
  });
});
