/**
 * The gateway against its yardsticks on PostgreSQL, in separate processes, side by side:
 * - the real API server (`api-server.ts`: full gateway, log, handler);
 * - a bare Hono route running the handler's same query (bench/bare-handler-server.ts);
 * - pgbench replaying the gateway's own statements, prepared, as the database's ceiling.
 * Rounds interleave the two servers so drift on a shared machine hits both alike. Also counts
 * PostgreSQL transactions and WAL syncs per admitted request from pg_stat_database and pg_stat_wal.
 */
import { spawn } from "node:child_process";
import { once } from "node:events";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import autocannon from "autocannon";
import postgres from "postgres";
import { getDb } from "@/db";
import { admissionStatement } from "@/db/queries/admission-statement";
import { rateWindowStart } from "@/core/rate-window";
import { WRITE_REQUEST_LOG } from "@/db/queries/request-log-writer";
import { products } from "@/db/schema";
import { newId } from "@/core/ids";
import { utcMonthStart } from "@/core/time";
import { hashApiKey } from "@/lib/keys/format";
import { PLAN_RULES } from "@/lib/api/gateway";
import { createOrg, insertKey } from "@/tests/helpers/factories";
import { startServerProcess } from "@/tests/helpers/server-process";
import { count, geometricMeanWithSpread, loadCells, mainThreadSchedule, median, ms, postgresCpuMs, printTable, processCpuMs, statusesText } from "./lib";

const CONNECTIONS = 50;
const ROUND_SECONDS = 6;
const WARM_UP_SECONDS = 2;
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 3);
const KEYS = 10;
const PATH = "/v1/products?limit=10";

export interface LoadRound {
  requestsPerSecond: number;
  p50: number;
  p99: number;
  statuses: Record<string, number>;
}

interface Round extends LoadRound {
  /** The server process's CPU time (user and system) per response, in microseconds. */
  cpuMicrosPerRequest: number;
  /** PostgreSQL's, all its processes together. */
  postgresMicrosPerRequest: number;
  /** The share of the round the server's main thread was ready to run but waited for a CPU. */
  waitingForCpu: number;
}

/**
 * What the HTTP benches load: an Enterprise organization (rate limit 100,000 a minute, no quota),
 * 25 products so GET PATH returns a full page, and `count` full-access keys named `${name} <i>`.
 */
export async function benchOrganization(name: string, count = KEYS) {
  const org = await createOrg("enterprise", { rateLimitPerMinute: 100_000 });
  const keys = await Promise.all(Array.from({ length: count }, (_, i) => insertKey(org.id, { name: `${name} ${i}` })));
  await getDb()
    .insert(products)
    .values(
      Array.from({ length: 25 }, (_, i) => ({
        orgId: org.id,
        mode: "live" as const,
        id: newId("prod"),
        name: `Bench product ${i}`,
        unitAmount: 1_000 + i,
        currency: "USD",
      })),
    );
  return { org, keys, values: keys.map((key) => key.value) };
}

/** `seconds` of CONNECTIONS connections, each cycling through `keys`, on GET PATH. */
export async function load(base: string, keys: string[], seconds: number): Promise<LoadRound> {
  const result = await autocannon({
    url: base,
    connections: CONNECTIONS,
    duration: seconds,
    // Each connection cycles through the keys, as several clients of one organization would.
    requests: keys.map((key) => ({ method: "GET", path: PATH, headers: { "x-api-key": key } })),
  });
  const statuses: Record<string, number> = {};
  for (const [code, n] of Object.entries(result.statusCodeStats ?? {})) statuses[code] = (n as { count: number }).count;
  return { requestsPerSecond: result.requests.average, p50: result.latency.p50, p99: result.latency.p99, statuses };
}

interface ServerCounters {
  transactions: number;
  walSyncs: number;
}

async function serverCounters(admin: postgres.Sql, database: string): Promise<ServerCounters> {
  const [row] = await admin<{ transactions: string; wal_syncs: string }[]>`
    select (select xact_commit + xact_rollback from pg_stat_database where datname = ${database}) as transactions,
           (select wal_sync from pg_stat_wal) as wal_syncs`;
  return { transactions: Number(row!.transactions), walSyncs: Number(row!.wal_syncs) };
}

/** One round against a fresh server process, with the transactions and WAL syncs its requests caused. */
async function measuredRound(
  server: { base: string; stop: () => Promise<void>; child: { pid?: number } },
  admin: postgres.Sql,
  database: string,
  keys: string[],
  idleCost: ServerCounters,
): Promise<Round & { perRequest: ServerCounters }> {
  await load(server.base, keys, WARM_UP_SECONDS);
  // A backend reports its counters when it exits: stop the server to read them whole.
  const before = await serverCounters(admin, database);
  const pid = server.child.pid!;
  const cpuBefore = processCpuMs(pid);
  const postgresBefore = postgresCpuMs();
  const scheduleBefore = mainThreadSchedule(pid);
  const loaded = await load(server.base, keys, ROUND_SECONDS);
  const cpuMs = processCpuMs(pid) - cpuBefore;
  const postgresMs = postgresCpuMs() - postgresBefore;
  const waitingNs = mainThreadSchedule(pid).waitingNs - scheduleBefore.waitingNs;
  const responses = Object.values(loaded.statuses).reduce((sum, n) => sum + n, 0);
  const round = {
    ...loaded,
    cpuMicrosPerRequest: (cpuMs * 1000) / responses,
    postgresMicrosPerRequest: (postgresMs * 1000) / responses,
    waitingForCpu: waitingNs / (ROUND_SECONDS * 1e9),
  };
  await server.stop();
  await new Promise((resolve) => setTimeout(resolve, 300));
  const after = await serverCounters(admin, database);
  const admitted = Object.entries(round.statuses).reduce((sum, [code, n]) => sum + (code === "200" ? n : 0), 0);
  return {
    ...round,
    perRequest: {
      transactions: (after.transactions - before.transactions - idleCost.transactions) / admitted,
      walSyncs: (after.walSyncs - before.walSyncs - idleCost.walSyncs) / admitted,
    },
  };
}

/** Rows per request-log batch in the pgbench replay: about what the gateway's batches hold at this load. */
const PGBENCH_LOG_BATCH = 8;

/**
 * The pgbench script: the gateway's statements for one request with this key, the handler's
 * query included, and one request-log batch of PGBENCH_LOG_BATCH rows every PGBENCH_LOG_BATCH
 * requests, as group commit writes them.
 */
function pgbenchScript(orgId: string, keyValue: string, keyId: string): string {
  const now = new Date();
  const windowStart = new Date(rateWindowStart(now.getTime())).toISOString();
  const quote = (value: string) => `'${value.replace(/'/g, "''")}'`;
  // One request per admission statement: the server batches concurrent ones, pgbench's clients cannot.
  const admission = [
    quote(`{${hashApiKey(keyValue)}}`),
    quote(`{${windowStart}}`),
    quote(`{${utcMonthStart(now)}}`),
    "array[random()]",
    "array[now()]",
    quote("{products}"),
    "array[1]",
    "array[true]",
    quote("{127.0.0.1}"),
  ];
  const row = [orgId, keyId, "req_bench", "GET", PATH, "GET /v1/products", "200", "3", "127.0.0.1", "pgbench", now.toISOString(), "true", null];
  const batchOf = (value: string | null) => quote(`{${Array.from({ length: PGBENCH_LOG_BATCH }, () => (value === null ? "NULL" : `"${value}"`)).join(",")}}`);
  // Then the details rows (docs/features/audit-log.md#request-details): none, as a success without an Idempotency-Key writes none; then the trace ids.
  const log = [...row.map(batchOf), ...Array.from({ length: 10 }, () => quote("{}")), batchOf("4bf92f3577b34da6a3ce929d0e0e4736")];
  const bind = (statement: string, values: string[]) => statement.replace(/\$(\d+)/g, (_, n: string) => values[Number(n) - 1]!);
  const oneLine = (statement: string) =>
    statement
      .replace(/--[^\n]*/g, "")
      .trim()
      .replace(/\s+/g, " ");
  const handler = `select * from products where org_id = ${quote(orgId)} order by created_at desc, id desc limit 11`;
  return [
    `${oneLine(bind(admissionStatement(PLAN_RULES), admission))};`,
    `${handler};`,
    `\\set batch random(1, ${PGBENCH_LOG_BATCH})`,
    "\\if :batch = 1",
    `${oneLine(bind(WRITE_REQUEST_LOG, log))};`,
    "\\endif",
  ].join("\n");
}

/** pgbench with one script per key, drawn at random for each transaction, as the load spreads over the keys. */
async function pgbenchCeiling(url: string, scripts: string[]): Promise<number> {
  const folder = fs.mkdtempSync(path.join(os.tmpdir(), "gateway-pgbench-"));
  const files = scripts.map((script, i) => {
    const file = path.join(folder, `key-${i}.sql`);
    fs.writeFileSync(file, script);
    return ["-f", `${file}@1`];
  });
  const { host, port, username, pathname } = new URL(url);
  const child = spawn(
    "pgbench",
    [
      "-n",
      "-M",
      "prepared",
      "-c",
      String(CONNECTIONS),
      "-j",
      "2",
      "-T",
      String(ROUND_SECONDS),
      ...files.flat(),
      "-h",
      host.split(":")[0]!,
      "-p",
      port || "5432",
      "-U",
      username,
      pathname.slice(1),
    ],
    { stdio: ["ignore", "pipe", "pipe"] },
  );
  let output = "";
  child.stdout!.on("data", (chunk) => (output += chunk));
  child.stderr!.on("data", (chunk) => (output += chunk));
  const [code] = (await once(child, "exit")) as [number];
  const tps = /tps = ([\d.]+)/.exec(output);
  if (code !== 0 || !tps) throw new Error(`pgbench failed (${code}): ${output}`);
  return Number(tps[1]);
}

export async function benchGatewayRatio(): Promise<void> {
  const url = process.env.DATABASE_URL;
  if (!url) {
    console.log("\n## Gateway ratio: skipped (set DATABASE_URL: it measures separate processes on PostgreSQL)");
    return;
  }
  const database = new URL(url).pathname.slice(1);
  const { org, keys, values } = await benchOrganization("Ratio");
  // The same load with keys restricted to what it asks for, from this machine only (docs/features/restricted-keys.md).
  const restricted = await Promise.all(
    Array.from({ length: KEYS }, (_, i) =>
      insertKey(org.id, { name: `Ratio restricted ${i}`, access: "restricted", scopes: { products: "read" }, ipAllowlist: ["127.0.0.0/8", "::1"] }),
    ),
  );

  const admin = postgres(url, { max: 1, onnotice: () => {} });
  try {
    // What a server costs the database just to start and stop (migration check, maintenance).
    const idleBefore = await serverCounters(admin, database);
    await (await startServerProcess("api-server.ts", {})).stop();
    await new Promise((resolve) => setTimeout(resolve, 300));
    const idleAfter = await serverCounters(admin, database);
    const idleCost = { transactions: idleAfter.transactions - idleBefore.transactions, walSyncs: idleAfter.walSyncs - idleBefore.walSyncs };

    const gateway: (Round & { perRequest: ServerCounters })[] = [];
    const bare: (Round & { perRequest: ServerCounters })[] = [];
    const withRestrictions: (Round & { perRequest: ServerCounters })[] = [];
    const ceiling: number[] = [];
    // Another checkout's gateway (BENCH_BASELINE_DIR, with its node_modules) under the same load,
    // against the same database: what a change between the two costs the hot path.
    const baselineDir = process.env.BENCH_BASELINE_DIR;
    const baseline: Round[] = [];
    // BENCH_RATIO_ONLY=1: the gateway against the bare route (and the baseline) alone, for A/B runs.
    const ratioOnly = process.env.BENCH_RATIO_ONLY === "1";
    for (let round = 0; round < ROUNDS; round++) {
      const baselineRound = async () => {
        if (baselineDir) baseline.push(await measuredRound(await startServerProcess("api-server.ts", {}, baselineDir), admin, database, values, idleCost));
      };
      // Which goes first alternates, so a warmer second turn favours neither.
      if (round % 2 === 0) await baselineRound();
      gateway.push(await measuredRound(await startServerProcess("api-server.ts", {}), admin, database, values, idleCost));
      if (round % 2 === 1) await baselineRound();
      if (!ratioOnly)
        withRestrictions.push(
          await measuredRound(
            await startServerProcess("api-server.ts", {}),
            admin,
            database,
            restricted.map((key) => key.value),
            idleCost,
          ),
        );
      // The bare server opens its connections for the handler only: nothing to discount.
      const bareServer = await startServerProcess("bench/bare-handler-server.ts", { BENCH_ORG_ID: org.id });
      bare.push(await measuredRound(bareServer, admin, database, values, { transactions: 0, walSyncs: 0 }));
      ceiling.push(
        await pgbenchCeiling(
          url,
          keys.map((key) => pgbenchScript(org.id, key.value, key.id)),
        ),
      );
    }

    const fmt = (n: number) => count(Math.round(n));
    printTable(
      `## Gateway ratio: GET ${PATH}, ${CONNECTIONS} connections, ${KEYS} keys of an Enterprise organization, ${ROUNDS} rounds of ${ROUND_SECONDS} s`,
      [
        [
          "round",
          "gateway req/s",
          "p50",
          "p99",
          "bare req/s",
          "p50",
          "p99",
          "pgbench tps",
          "gateway ÷ bare",
          "gateway ÷ pgbench",
          "added p50",
          "added p99",
          "µs CPU / request, gateway / bare",
          "PostgreSQL µs / request, gateway / bare",
          "server waiting for a CPU, gateway / bare",
          "gateway tx / request",
          "WAL syncs / request",
        ],
        ...gateway.map((g, i) => {
          const b = bare[i]!;
          return [
            String(i + 1),
            ...loadCells(g, b),
            fmt(ceiling[i]!),
            (g.requestsPerSecond / b.requestsPerSecond).toFixed(2),
            (g.requestsPerSecond / ceiling[i]!).toFixed(2),
            ms(g.p50 - b.p50),
            ms(g.p99 - b.p99),
            `${fmt(g.cpuMicrosPerRequest)} / ${fmt(b.cpuMicrosPerRequest)}`,
            `${fmt(g.postgresMicrosPerRequest)} / ${fmt(b.postgresMicrosPerRequest)}`,
            `${(g.waitingForCpu * 100).toFixed(0)} % / ${(b.waitingForCpu * 100).toFixed(0)} %`,
            // The transactions the gateway adds to the handler's own.
            (g.perRequest.transactions - b.perRequest.transactions).toFixed(2),
            g.perRequest.walSyncs.toFixed(2),
          ];
        }),
      ],
    );
    const ratios = gateway.map((g, i) => g.requestsPerSecond / bare[i]!.requestsPerSecond);
    const statuses = gateway.map((g) => statusesText(g.statuses)).join("; ");
    const addedP99 = gateway.map((g, i) => g.p99 - bare[i]!.p99);
    console.log(
      `median gateway ÷ bare ${median(ratios).toFixed(2)} (required ≥ 0.75, goal 0.8); median added p50 ${ms(median(gateway.map((g, i) => g.p50 - bare[i]!.p50)))}, p99 ${ms(median(addedP99))} (required ≤ 5 ms); gateway statuses: ${statuses}`,
    );
    if (!ratioOnly) {
      const restrictedRatios = withRestrictions.map((r, i) => r.requestsPerSecond / gateway[i]!.requestsPerSecond);
      printTable("## The gateway with restricted keys (products: read, an IP allowlist) against full-access keys, same load", [
        ["round", "restricted req/s", "p50", "p99", "full access req/s", "restricted ÷ full", "statuses"],
        ...withRestrictions.map((r, i) => [
          String(i + 1),
          fmt(r.requestsPerSecond),
          ms(r.p50),
          ms(r.p99),
          fmt(gateway[i]!.requestsPerSecond),
          restrictedRatios[i]!.toFixed(2),
          statusesText(r.statuses),
        ]),
      ]);
      console.log(`median restricted ÷ full ${median(restrictedRatios).toFixed(2)} (goal: within 5 %, ≥ 0.95)`);
    }
    if (baselineDir) {
      const changeRatios = gateway.map((g, i) => g.requestsPerSecond / baseline[i]!.requestsPerSecond);
      const cpuRatios = gateway.map((g, i) => g.cpuMicrosPerRequest / baseline[i]!.cpuMicrosPerRequest);
      printTable(`## This gateway against the one in ${baselineDir}, same load, taking turns to go first`, [
        [
          "round",
          "this req/s",
          "p50",
          "p99",
          "µs CPU / request",
          "baseline req/s",
          "p50",
          "p99",
          "µs CPU / request",
          "this ÷ baseline",
          "CPU this ÷ baseline",
          "this ÷ bare",
          "baseline ÷ bare",
        ],
        ...gateway.map((g, i) => {
          const b = baseline[i]!;
          const bareRound = bare[i]!.requestsPerSecond;
          return [
            String(i + 1),
            fmt(g.requestsPerSecond),
            ms(g.p50),
            ms(g.p99),
            fmt(g.cpuMicrosPerRequest),
            fmt(b.requestsPerSecond),
            ms(b.p50),
            ms(b.p99),
            fmt(b.cpuMicrosPerRequest),
            changeRatios[i]!.toFixed(2),
            cpuRatios[i]!.toFixed(2),
            (g.requestsPerSecond / bareRound).toFixed(2),
            (b.requestsPerSecond / bareRound).toFixed(2),
          ];
        }),
      ]);
      console.log(`this ÷ baseline: median ${median(changeRatios).toFixed(2)}, ${geometricMeanWithSpread(changeRatios)}`);
      console.log(`server CPU per request, this ÷ baseline: median ${median(cpuRatios).toFixed(2)}, ${geometricMeanWithSpread(cpuRatios)}`);
    }
  } finally {
    await admin.end();
  }
}
