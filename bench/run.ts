/**
 * npm run bench: the gateway over real HTTP, audit-log pages at depth, a key's 30-day stats and
 * memory, on a throwaway database (in-memory PGlite, or a fresh bench_<pid> when DATABASE_URL is
 * set). Prints figures and ratios; asserts nothing. Runs under `--conditions=react-server` so the
 * query modules' `import "server-only"` resolves to its empty export, as in the Next server.
 */
import { sql } from "drizzle-orm";
import { closeDb, databaseKind, getDb } from "@/db";
import { migrateDatabase } from "@/db/migrate";
import { ensureRequestLogPartitions } from "@/db/partitions";
import { rowsOf } from "@/db/rows";
import { windowStartDay } from "@/db/queries/api-keys";
import { listAuditLog } from "@/db/queries/audit-log";
import { getKeyUsage } from "@/db/queries/key-usage";
import { rebuildRollups } from "@/db/rollups/statements";
import { customers, invoiceLineItems, invoices } from "@/db/schema";
import { newId } from "@/core/ids";
import { utcDay } from "@/core/time";
import { createOrg, insertKey } from "@/tests/helpers/factories";
import { createBenchDatabase } from "./database";
import { memorySnapshot } from "./lib";
import { count, median, mib, ms, percentile, printLines, printTable, runLoad, startBenchApi, timeRepeated, times, type LoadResult } from "./lib";
import { benchAuditAtScale } from "./audit-at-scale";
import { benchUsageAtScale } from "./usage-at-scale";
import { benchUsageOnClickhouse } from "./usage-on-clickhouse";
import { benchGatewayRatio } from "./gateway-ratio";
import { benchGatewayLatency } from "./gateway-latency";
import { benchKeyBudget } from "./key-budget";
import { benchServerTopologies } from "./server-topologies";
import { benchProfileGateway } from "./profile-gateway";
import { benchLiveTail } from "./live-tail";
import { benchWorstCases } from "./worst-cases";
import { benchMetricsCost } from "./metrics-cost";
import { benchMemory } from "./memory";
import { benchSdkOverhead } from "./sdk-overhead";
import { benchLogStreamsCost } from "./log-streams-cost";

const HTTP_REQUESTS = 2_000;
const HTTP_WARM_UP = 200;
const HTTP_CONCURRENCY = 20;
const LOG_ROWS = 100_000;
const OTHER_ORG_ROWS = 3_000;
const DEPTH = 50_000;
const QUERY_REPEATS = 20;
const DAY_MS = 24 * 3600_000;

type Memory = ReturnType<typeof process.memoryUsage>;

// ── 1. Gateway over HTTP ──────────────────────────────────────────────────────────────────────

/** A customer and 25 draft invoices of one line each, so `limit=10` returns a full page. */
async function seedInvoices(orgId: string): Promise<void> {
  const customerId = newId("cus");
  await getDb().insert(customers).values({ orgId, mode: "live", id: customerId, name: "Bench Customer", email: "bench@example.test" });
  const rows = Array.from({ length: 25 }, () => ({
    orgId,
    mode: "live" as const,
    id: newId("in"),
    customerId,
    currency: "USD",
    subtotal: 10_000,
    tax: 0,
    total: 10_000,
  }));
  await getDb().insert(invoices).values(rows);
  await getDb()
    .insert(invoiceLineItems)
    .values(
      rows.map((invoice) => ({
        orgId,
        mode: "live" as const,
        id: newId("li"),
        invoiceId: invoice.id,
        position: 0,
        description: "Consulting",
        quantity: 1,
        unitAmount: 10_000,
        taxRatePpm: 0,
        amount: 10_000,
        tax: 0,
      })),
    );
}

/** The same key with its last character changed: right shape, wrong checksum, refused before any query. */
function withBadChecksum(key: string): string {
  const last = key.at(-1) === "A" ? "B" : "A";
  return key.slice(0, -1) + last;
}

async function benchGateway(orgId: string, keyValue: string): Promise<void> {
  const api = await startBenchApi();
  const base = api.base;
  const scenarios: { name: string; path: string; key?: string }[] = [
    { name: "GET /v1/invoices?limit=10, valid key (full gateway)", path: "/v1/invoices?limit=10", key: keyValue },
    { name: "GET /v1/invoices?limit=10, bad checksum (refused before DB)", path: "/v1/invoices?limit=10", key: withBadChecksum(keyValue) },
    { name: "GET /v1/openapi.json (public, no gateway)", path: "/v1/openapi.json" },
  ];
  const results: LoadResult[] = [];
  let authenticated = 0; // responses that passed through the gateway with the valid key, warm-up included
  try {
    for (const scenario of scenarios) {
      const init: RequestInit = { headers: scenario.key ? { "X-API-Key": scenario.key } : {} };
      const warm = await runLoad(base + scenario.path, init, HTTP_WARM_UP, HTTP_CONCURRENCY);
      const result = await runLoad(base + scenario.path, init, HTTP_REQUESTS, HTTP_CONCURRENCY);
      if (scenario.key === keyValue) authenticated += warm.requests + result.requests;
      results.push(result);
    }
  } finally {
    await api.close();
  }

  const rps = (result: LoadResult) => (result.requests / result.elapsedMs) * 1000;
  const statusText = (result: LoadResult) => [...result.statuses].map(([status, n]) => `${status}×${n}`).join(" ");
  printTable(
    `1. Gateway over HTTP: ${count(HTTP_REQUESTS)} requests per scenario, concurrency ${HTTP_CONCURRENCY}, after ${HTTP_WARM_UP} warm-up (client in the same process)`,
    [
      ["scenario", "req/s", "p50", "p99", "body", "statuses"],
      ...scenarios.map((scenario, i) => {
        const result = results[i]!;
        return [
          scenario.name,
          rps(result).toFixed(0),
          ms(percentile(result.latencies, 50)),
          ms(percentile(result.latencies, 99)),
          `${count(result.bodyBytes)} B`,
          statusText(result),
        ];
      }),
    ],
  );
  const [full, refused, open] = results as [LoadResult, LoadResult, LoadResult];
  const [logged] = rowsOf<{ n: number }>(await getDb().execute(sql`select count(*)::int as n from request_log where org_id = ${orgId}`));
  printLines([
    ["throughput, refused-before-DB / full gateway", times(rps(refused) / rps(full))],
    ["throughput, openapi.json / full gateway", times(rps(open) / rps(full))],
    ["p50, full gateway / refused-before-DB", times(percentile(full.latencies, 50) / percentile(refused.latencies, 50))],
    ["p99, full gateway / refused-before-DB", times(percentile(full.latencies, 99) / percentile(refused.latencies, 99))],
    [
      "request_log rows for the org / authenticated responses",
      `${count(Number(logged?.n))} / ${count(authenticated)}${Number(logged?.n) === authenticated ? " (equal)" : " (DIFFER)"}`,
    ],
  ]);
}

// ── 2. Audit log at depth ─────────────────────────────────────────────────────────────────────

/**
 * `rows` request_log rows for one org, evenly spread over the 30 days before `now` (newest
 * first by g), in one statement so the load itself takes seconds, not minutes. Every fourth row
 * belongs to `otherKeyId`; endpoints and statuses cycle through a realistic mix.
 */
async function insertLogRows(orgId: string, keyId: string, otherKeyId: string, rows: number, now: Date): Promise<void> {
  const stepSeconds = (30 * DAY_MS) / 1000 / rows;
  await getDb().execute(sql`
    insert into request_log (org_id, api_key_id, request_id, method, path, endpoint, status, duration_ms, ip, user_agent, created_at)
    select ${orgId}, case when g % 4 = 0 then ${otherKeyId} else ${keyId} end, 'req_bench' || g,
           split_part(e.endpoint, ' ', 1), replace(split_part(e.endpoint, ' ', 2), '{id}', 'in_' || g), e.endpoint,
           (array[200, 200, 200, 201, 400, 404, 429, 500])[1 + g % 8], 5 + g % 200, '203.0.113.7', 'bench',
           ${now.toISOString()}::timestamptz - make_interval(secs => g * ${stepSeconds}::float8)
    from generate_series(1, ${rows}) g
    cross join lateral (select (array['GET /v1/invoices', 'GET /v1/invoices/{id}', 'POST /v1/invoices', 'GET /v1/customers', 'GET /v1/products'])[1 + (g / 4) % 5] as endpoint) e`);
}

async function benchAuditLog(orgId: string, now: Date): Promise<void> {
  const db = getDb();
  // The cursor of the row DEPTH rows down, in the text form listAuditLog hands out (microseconds).
  const [deep] = rowsOf<{ at: string; id: number | string }>(
    await db.execute(sql`
      select to_char(created_at at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"') as at, id
      from request_log where org_id = ${orgId} order by created_at desc, id desc offset ${DEPTH - 1} limit 1`),
  );
  const cursor = { at: deep!.at, id: Number(deep!.id) };

  const first = await timeRepeated(() => listAuditLog({ orgId: orgId, mode: "live" }, {}, { now }), QUERY_REPEATS);
  const keyset = await timeRepeated(() => listAuditLog({ orgId: orgId, mode: "live" }, { before: cursor }, { now }), QUERY_REPEATS);
  // What listAuditLog's page query would be with OFFSET instead of a cursor: same columns, join and order.
  const offset = await timeRepeated(
    async () =>
      rowsOf<{ id: number | string }>(
        await db.execute(sql`
          select r.id, to_char(r.created_at at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"') as cursor_at, r.created_at, r.request_id,
                 r.api_key_id, k.name, k.hint, k.revoked_at, r.method, r.path, r.endpoint, r.status, r.duration_ms, r.ip, r.user_agent
          from request_log r left join api_keys k on k.id = r.api_key_id and k.org_id = r.org_id
          where r.org_id = ${orgId}
          order by r.created_at desc, r.id desc offset ${DEPTH} limit 51`),
      ),
    QUERY_REPEATS,
  );

  // Each filter of the page on its own index: a page costs about what an unfiltered one does.
  const filters = [
    ["status class 5xx", { status: "5xx" }],
    ["method POST", { method: "POST" }],
    ["endpoint GET /v1/invoices/{id} + 4xx", { endpoint: "GET /v1/invoices/{id}", status: "4xx" }],
  ] as const;
  const filtered = [];
  for (const [label, filter] of filters)
    filtered.push([label, await timeRepeated(() => listAuditLog({ orgId: orgId, mode: "live" }, filter, { now }), QUERY_REPEATS)] as const);

  const samePage = Number(offset.result[0]?.id) === keyset.result.rows[0]?.id;
  printTable(`2. Audit log pages (50 rows), ${count(LOG_ROWS)} rows for the org over 30 days, median of ${QUERY_REPEATS}`, [
    ["query", "median", "min", "rows"],
    ["listAuditLog page 1 (keyset, 1 query)", ms(median(first.samples)), ms(Math.min(...first.samples)), String(first.result.rows.length)],
    [
      `listAuditLog ${count(DEPTH)} rows deep (keyset, + "newer?" probe)`,
      ms(median(keyset.samples)),
      ms(Math.min(...keyset.samples)),
      String(keyset.result.rows.length),
    ],
    [`same page by OFFSET ${count(DEPTH)} LIMIT 51`, ms(median(offset.samples)), ms(Math.min(...offset.samples)), String(offset.result.length)],
    ...filtered.map(([label, run]) => [`listAuditLog page 1, ${label}`, ms(median(run.samples)), ms(Math.min(...run.samples)), String(run.result.rows.length)]),
  ]);
  printLines([
    ["keyset deep / keyset page 1", times(median(keyset.samples) / median(first.samples))],
    ["OFFSET deep / keyset deep", times(median(offset.samples) / median(keyset.samples))],
    ["deep page: keyset and OFFSET start at the same row", samePage ? "yes" : "NO"],
  ]);
}

// ── 3. A key's 30-day stats ───────────────────────────────────────────────────────────────────

async function benchKeyUsage(orgId: string, keyId: string, now: Date): Promise<void> {
  const rebuildStarted = performance.now();
  await rebuildRollups(getDb(), [orgId]);
  const rebuildMs = performance.now() - rebuildStarted;
  const [rollupRows] = rowsOf<{ n: number }>(await getDb().execute(sql`select count(*)::int as n from request_daily_rollup where api_key_id = ${keyId}`));

  const fromRollups = await timeRepeated(() => getKeyUsage(orgId, keyId, now), QUERY_REPEATS);
  // The same numbers straight from request_log: getKeyUsage's window (30 UTC days, today
  // included) grouped as the rollup is, by day, endpoint and status.
  const from = `${windowStartDay(now)}T00:00:00.000Z`;
  const to = new Date(new Date(`${utcDay(now)}T00:00:00.000Z`).getTime() + DAY_MS).toISOString();
  const fromLog = await timeRepeated(
    async () =>
      rowsOf<{ day: string; endpoint: string; status: number; n: number }>(
        await getDb().execute(sql`
          select (created_at at time zone 'UTC')::date::text as day, endpoint, status, count(*)::int as n
          from request_log
          where org_id = ${orgId} and api_key_id = ${keyId} and created_at >= ${from}::timestamptz and created_at < ${to}::timestamptz
          group by 1, 2, 3`),
      ),
    QUERY_REPEATS,
  );
  const logTotal = fromLog.result.reduce((sum, row) => sum + Number(row.n), 0);

  printTable(`3. One key's 30-day stats, median of ${QUERY_REPEATS}`, [
    ["query", "median", "min", "requests counted"],
    [
      `getKeyUsage (rollups, ${count(Number(rollupRows?.n))} rows for the key)`,
      ms(median(fromRollups.samples)),
      ms(Math.min(...fromRollups.samples)),
      count(fromRollups.result.total),
    ],
    ["same aggregation over request_log", ms(median(fromLog.samples)), ms(Math.min(...fromLog.samples)), count(logTotal)],
  ]);
  printLines([
    ["request_log / rollups", times(median(fromLog.samples) / median(fromRollups.samples))],
    ["totals agree", fromRollups.result.total === logTotal ? "yes" : "NO"],
    ["rebuildRollups for the org (once)", ms(rebuildMs)],
  ]);
}

// ── Main ──────────────────────────────────────────────────────────────────────────────────────

function printMemory(before: Memory, after: Memory): void {
  printTable(`4. Memory around section 1 (process.memoryUsage${"gc" in globalThis ? " after gc()" : ""}; an embedded PGlite counts in rss)`, [
    ["", "before", "after", "change"],
    ["rss", mib(before.rss), mib(after.rss), mib(after.rss - before.rss)],
    ["heapUsed", mib(before.heapUsed), mib(after.heapUsed), mib(after.heapUsed - before.heapUsed)],
  ]);
}

// The servers the sections start run in production mode, where PostgreSQL needs an AUTH_SECRET
// (the API opens the webhooks' sealed secrets with a key derived from it): a throwaway one, as the tests' setup has.
process.env.AUTH_SECRET ??= "bench-only-secret-for-its-own-throwaway-database";
const startedAt = performance.now();
const database = await createBenchDatabase();
try {
  await migrateDatabase();
  console.log(`Benchmarks on ${database.label} (${databaseKind()}), Node ${process.version}`);

  const only = process.argv.find((arg) => arg.startsWith("--only="))?.slice("--only=".length);
  if (!only || only === "gateway-ratio") await benchGatewayRatio();
  if (!only || only === "gateway-latency") await benchGatewayLatency();
  if (!only || only === "sdk-overhead") await benchSdkOverhead();
  if (!only || only === "log-streams") await benchLogStreamsCost();
  if (!only || only === "key-budget") await benchKeyBudget();
  if (!only || only === "metrics-cost") await benchMetricsCost();
  if (!only || only === "server-topologies") await benchServerTopologies();
  if (!only || only === "memory") await benchMemory();
  if (only === "profile") await benchProfileGateway();
  if (!only || only === "live-tail") await benchLiveTail();
  if (!only || only === "in-process") await benchInProcess();
  if (!only || only === "audit-at-scale") {
    if (databaseKind() === "postgres") await benchAuditAtScale();
    else console.log("\n6–7. Audit log at scale: PostgreSQL only (set DATABASE_URL).");
  }
  if (!only || only === "usage-at-scale") {
    if (databaseKind() === "postgres") await benchUsageAtScale();
    else console.log("\nUsage at scale: PostgreSQL only (set DATABASE_URL).");
  }
  if (only === "usage-clickhouse") {
    if (databaseKind() === "postgres") await benchUsageOnClickhouse();
    else console.log("\nUsage from ClickHouse: PostgreSQL only (set DATABASE_URL).");
  }
  console.log(`\nTotal ${((performance.now() - startedAt) / 1000).toFixed(1)} s`);
} finally {
  await closeDb();
  await database.drop();
}

/** The sections that run the gateway and the queries inside this process. */
async function benchInProcess(): Promise<void> {
  const org = await createOrg("enterprise", { rateLimitPerMinute: 100_000 });
  const key = await insertKey(org.id, { name: "Bench" }); // the value lives only in this process
  await seedInvoices(org.id);

  const memoryBefore = memorySnapshot();
  await benchGateway(org.id, key.value);
  const memoryAfter = memorySnapshot();

  const now = new Date();
  await ensureRequestLogPartitions(getDb(), new Date(now.getTime() - 31 * DAY_MS), now);
  const otherKey = await insertKey(org.id, { name: "Bench 2" });
  const loadStarted = performance.now();
  await insertLogRows(org.id, key.id, otherKey.id, LOG_ROWS, now);
  const otherOrg = await createOrg("pro");
  const otherOrgKey = await insertKey(otherOrg.id);
  await insertLogRows(otherOrg.id, otherOrgKey.id, otherOrgKey.id, OTHER_ORG_ROWS, now);
  // Fresh statistics, as autovacuum would have them on a live table, so plans are the steady-state ones.
  await getDb().execute(sql`analyze request_log`);
  console.log(`\n(loaded ${count(LOG_ROWS + OTHER_ORG_ROWS)} request_log rows in ${ms(performance.now() - loadStarted)})`);

  await benchAuditLog(org.id, now);
  await benchKeyUsage(org.id, key.id, now);
  printMemory(memoryBefore, memoryAfter);
  await benchWorstCases();
}
