import { eq, sql, sum } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { getDb, poolApplicationName, poolMaxConnections, queryPrepared } from "@/db";
import { writeRequestLog } from "@/db/queries/request-log-writer";
import { newRequestId } from "@/core/ids";
import { admissionFor } from "@/db/queries/gateway";
import { admissionStatement } from "@/db/queries/admission-statement";
import { rateWindowStart } from "@/core/rate-window";
import { monthlyUsage } from "@/db/schema";
import { openPostgres } from "@/db/postgres-url";
import { utcMonthStart } from "@/core/time";
import { hashApiKey } from "@/lib/keys/format";
import { PLAN_RULES } from "@/lib/api/gateway";
import { createOrg, insertKey } from "./helpers/factories";
import { until } from "./helpers/eventually";

const statement = admissionStatement(PLAN_RULES);

interface Row {
  ord: number;
  rate_count: number | null;
  revoked: boolean;
  quota_counted: boolean;
  quota_used: number;
}

/** One admission statement for these keys, in this order, as a batch of concurrent requests sends it. */
async function admitTogether(keys: string[], at = new Date()): Promise<Row[]> {
  const rows = await queryPrepared<Row>(statement, [
    keys.map(hashApiKey),
    keys.map(() => new Date(rateWindowStart(at.getTime())).toISOString()),
    keys.map(() => utcMonthStart(at)),
    keys.map(() => 0), // every request draws shard 0
    keys.map(() => at.toISOString()),
    keys.map(() => "invoices"),
    keys.map(() => 1), // read
    keys.map(() => true),
    keys.map(() => "127.0.0.1"),
  ]);
  return rows.sort((a, b) => a.ord - b.ord);
}

async function monthCount(orgId: string): Promise<number> {
  const [row] = await getDb()
    .select({ total: sum(monthlyUsage.count).mapWith(Number) })
    .from(monthlyUsage)
    .where(eq(monthlyUsage.orgId, orgId));
  return row?.total ?? 0;
}

describe("admitting a batch of requests in one statement", () => {
  it("gives a key's requests consecutive places in its minute, in arrival order, and counts none for a revoked key", async () => {
    const org = await createOrg("enterprise", { rateLimitPerMinute: 3 });
    const { value: key } = await insertKey(org.id);
    const { value: other } = await insertKey(org.id);
    const { value: revoked } = await insertKey(org.id, { revoked: true });
    const unknown = key.slice(0, -3) + (key.endsWith("AAA") ? "BBB" : "AAA");
    const rows = await admitTogether([key, other, key, unknown, revoked, key, key, key]);
    const place = (ord: number) => rows.find((row) => row.ord === ord);
    expect([1, 3, 6, 7, 8].map((ord) => place(ord)?.rate_count)).toEqual([1, 2, 3, 4, 5]);
    expect(place(2)?.rate_count).toBe(1);
    expect(place(4)).toBeUndefined();
    expect(place(5)).toMatchObject({ revoked: true, rate_count: null });
    // The next batch goes on from where this one left the minute.
    expect((await admitTogether([key, other])).map((row) => row.rate_count)).toEqual([6, 2]);
  });

  it("counts an organization's calls on one shard up to its cap, the first arrivals first, and no refused call", async () => {
    const org = await createOrg("trial"); // 50 calls a month over 8 shards: shard 0 holds 7
    const { value: key } = await insertKey(org.id);
    const rows = await admitTogether(Array.from({ length: 10 }, () => key));
    expect(rows.map((row) => row.quota_counted)).toEqual([...Array(7).fill(true), ...Array(3).fill(false)]);
    expect(rows.slice(0, 7).map((row) => row.quota_used)).toEqual([1, 2, 3, 4, 5, 6, 7]);
    // The three beyond the shard's cap see a month with room: the gateway counts them elsewhere.
    expect(rows.slice(7).every((row) => row.quota_used === 7)).toBe(true);
    expect(await monthCount(org.id)).toBe(7);
  });

  it("counts in the month every call its minute admits, the 60th included, and not the 61st", async () => {
    const org = await createOrg("pro"); // 60 a minute; 10,000 a month over 8 shards: shard 0 holds 1,250
    const { value: key } = await insertKey(org.id);
    const rows = await admitTogether(Array.from({ length: 61 }, () => key));
    expect(rows.map((row) => row.rate_count)).toEqual(Array.from({ length: 61 }, (_, i) => i + 1));
    expect(rows.map((row) => row.quota_counted)).toEqual([...Array(60).fill(true), false]);
    expect(await monthCount(org.id)).toBe(60);
  });

  it("admits concurrent requests exactly through the gateway's batches, shards filling up included", async () => {
    const org = await createOrg("trial");
    const { value: key } = await insertKey(org.id);
    const admit = admissionFor(PLAN_RULES);
    const admissions = await Promise.all(
      Array.from({ length: 60 }, () =>
        admit({ keyHash: hashApiKey(key), at: new Date(), need: { resource: "invoices", permission: "read" }, safe: true, ip: "127.0.0.1" }),
      ),
    );
    expect(admissions.filter((admission) => admission!.quotaCounted)).toHaveLength(50);
    expect(new Set(admissions.map((admission) => admission!.rateCount))).toEqual(new Set(Array.from({ length: 60 }, (_, i) => i + 1)));
    expect(await monthCount(org.id)).toBe(50);
  });
});

describe("the gateway's lanes on PostgreSQL", () => {
  it.skipIf(!process.env.DATABASE_URL)(
    "admits and logs on connections of their own while every connection of the pool waits, within the pool's size",
    async () => {
      const org = await createOrg("pro");
      const key = await insertKey(org.id);
      const admin = openPostgres({ max: 1, onnotice: () => {} });
      const LOCK = 727_301_099;
      try {
        // Every connection the pool may open (its size less the two lanes) waits on a lock the test holds.
        await admin`select pg_advisory_lock(${LOCK})`;
        const poolConnections = poolMaxConnections() - 2;
        let released = false;
        const waiting = Array.from({ length: poolConnections }, () =>
          getDb()
            .execute(sql`select pg_advisory_xact_lock(${LOCK})`)
            .then(() => expect(released).toBe(true)),
        );
        const allWaiting = await until(async () => {
          const [row] = await admin<
            { n: number }[]
          >`select count(*)::int as n from pg_stat_activity where wait_event_type = 'Lock' and application_name = ${poolApplicationName()}`;
          return row!.n === poolConnections;
        }, 10_000);
        expect(allWaiting).toBe(true);

        const at = new Date();
        const admission = await admissionFor(PLAN_RULES)({ keyHash: hashApiKey(key.value), at, need: null, safe: true, ip: "127.0.0.1" });
        expect(admission).toMatchObject({ keyId: key.id, rateCount: 1 });
        const requestId = newRequestId(at.getTime());
        await writeRequestLog({
          orgId: org.id,
          apiKeyId: key.id,
          requestId,
          method: "GET",
          path: "/v1/invoices",
          endpoint: "GET /v1/invoices",
          status: 200,
          durationMs: 1,
          ip: "127.0.0.1",
          userAgent: null,
          errorCode: null,
          at,
          touchesKey: true,
          traceId: null,
          detail: null,
        });
        const [logged] = await admin<{ n: number }[]>`select count(*)::int as n from request_log where org_id = ${org.id} and request_id = ${requestId}`;
        expect(logged!.n).toBe(1);
        const [connections] = await admin<{ n: number }[]>`select count(*)::int as n from pg_stat_activity where application_name = ${poolApplicationName()}`;
        expect(connections!.n).toBeLessThanOrEqual(poolMaxConnections());

        released = true;
        await admin`select pg_advisory_unlock(${LOCK})`;
        await Promise.all(waiting);
      } finally {
        await admin.end();
      }
    },
  );
});
