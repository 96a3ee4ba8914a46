import { sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { getDb } from "@/db";
import { poolUsage } from "@/db/pool-usage";
import { openPostgres } from "@/db/postgres-url";
import { eventually } from "./helpers/eventually";
import { createOrg, insertKey } from "./helpers/factories";
import { listenOnePort } from "./helpers/one-port";
import { startServerProcess, type ServerProcess } from "./helpers/server-process";

// GET /metrics (docs/operations.md#metrics): behind METRICS_TOKEN, Prometheus text, bounded labels,
// and on a server of several workers one scrape that covers all of them.

const TOKEN = "metrics-token-for-tests-0123456789";
// Set before this file's first serviceMetrics(), which reads it once per process.
process.env.METRICS_TOKEN = TOKEN;

// prom-client writes a histogram of no samples as "Nan", which Prometheus reads (it parses NaN in any case).
const SAMPLE = /^([a-zA-Z_:][a-zA-Z0-9_:]*)(\{(?:[a-zA-Z_][a-zA-Z0-9_]*="(?:[^"\\\n]|\\.)*",?)*\})? (-?[0-9.]+(?:e[+-]?[0-9]+)?|[Nn]a[Nn]|[+-]Inf)$/;

/** The exposition parsed line by line, failing on any line that is not a comment or a sample: sample → value. */
function parsePrometheusText(text: string): Map<string, number> {
  const samples = new Map<string, number>();
  for (const line of text.split("\n")) {
    if (line === "" || /^# (HELP|TYPE) [a-zA-Z_:][a-zA-Z0-9_:]* .+$/.test(line)) continue;
    const match = SAMPLE.exec(line);
    if (!match) throw new Error(`Not Prometheus text: ${line}`);
    samples.set(`${match[1]}${match[2] ?? ""}`, Number(match[3]));
  }
  return samples;
}

async function scrape(base: string, token: string | null = TOKEN) {
  const response = await fetch(`${base}/metrics`, token === null ? {} : { headers: { Authorization: `Bearer ${token}` } });
  return { status: response.status, contentType: response.headers.get("content-type"), text: await response.text() };
}

describe("/metrics on a server of one process", () => {
  let listener: Awaited<ReturnType<typeof listenOnePort>>;
  let base = "";
  beforeAll(async () => {
    listener = await listenOnePort();
    base = listener.base;
  });
  afterAll(() => listener.close());

  it("refuses a scrape without the token or with another", async () => {
    for (const token of [null, "not-the-token", `${TOKEN}x`]) {
      const refused = await scrape(base, token);
      expect(refused.status).toBe(401);
      expect(refused.text).not.toContain("http_request_duration_seconds");
    }
  });

  it("counts requests by route template, method and status class, gateway refusals by code, and the batches", async () => {
    const org = await createOrg("pro");
    const key = await insertKey(org.id);
    const headers = { "X-API-Key": key.value };
    for (let i = 0; i < 3; i++) expect((await fetch(`${base}/v1/customers`, { headers })).status).toBe(200);
    expect((await fetch(`${base}/v1/customers/cus_${org.id}`, { headers })).status).toBe(404);
    // Its last character changed (to one it is not): no key matches.
    const typo = `${key.value.slice(0, -1)}${key.value.endsWith("x") ? "y" : "x"}`;
    expect((await fetch(`${base}/v1/customers`, { headers: { "X-API-Key": typo } })).status).toBe(401);
    expect((await fetch(`${base}/acme/settings/api`)).status).toBe(200);

    const scraped = await scrape(base);
    expect([scraped.status, scraped.contentType]).toEqual([200, "text/plain; version=0.0.4; charset=utf-8"]);
    const samples = parsePrometheusText(scraped.text);
    expect(samples.get('http_request_duration_seconds_count{route="/v1/customers",method="GET",status_class="2xx"}')).toBe(3);
    expect(samples.get('http_request_duration_seconds_count{route="/v1/customers/:id",method="GET",status_class="4xx"}')).toBe(1);
    expect(samples.get('http_request_duration_seconds_count{route="(dashboard)",method="GET",status_class="2xx"}')).toBe(1);
    expect(samples.get('gateway_refusals_total{code="api_key_invalid"}')).toBe(1);
    expect(samples.get('gateway_batch_size_count{batch="admission"}')).toBeGreaterThanOrEqual(4);
    expect(samples.get('gateway_batch_duration_seconds_count{batch="request_log_write"}')).toBeGreaterThanOrEqual(4);
    expect(samples.get('job_queue_depth{queue="webhook-delivery"}')).toBeGreaterThanOrEqual(0);
    expect(samples.get("live_tail_streams_open")).toBe(0);
    for (const name of ["process_resident_memory_bytes", "nodejs_eventloop_lag_p99_seconds", "nodejs_heap_size_used_bytes"])
      expect(samples.has(name), name).toBe(true);
    // Cardinality: no label names an organization, a key or a raw path.
    for (const secret of [org.id, key.id, key.value, "cus_"]) expect(scraped.text).not.toContain(secret);
  });
});

describe.skipIf(!process.env.DATABASE_URL)("the database pool's gauges", () => {
  let listener: Awaited<ReturnType<typeof listenOnePort>>;
  beforeAll(async () => {
    listener = await listenOnePort();
  });
  afterAll(() => listener.close());

  it("count the connections in use and the statements waiting for one, read apart from the pool", async () => {
    const size = Number(process.env.DATABASE_POOL_SIZE);
    const scraped = parsePrometheusText((await scrape(listener.base)).text);
    expect(scraped.get("db_client_connections_max")).toBe(size);
    expect(scraped.has('db_client_connections{state="used"}')).toBe(true);
    expect(scraped.get("db_client_connections_pending_requests")).toBe(0);

    // A lock held elsewhere blocks two statements more than the pool has connections for them: its
    // size counts the gateway's two lanes (db/index.ts), which no other statement takes.
    const general = size - 2;
    const lock = 727_300_555;
    const holder = openPostgres({ max: 1 });
    try {
      await holder`select pg_advisory_lock(${lock})`;
      // Promise.all starts them: a drizzle query runs when awaited.
      const blocked = Promise.all(Array.from({ length: size + 2 }, () => getDb().execute(sql`select pg_advisory_xact_lock_shared(${lock})`)));
      const saturated = await eventually(poolUsage, (usage) => usage.used === general);
      expect(saturated).toMatchObject({ used: general, pending: 4 });
      await holder`select pg_advisory_unlock(${lock})`;
      await blocked;
      const drained = await eventually(poolUsage, (usage) => usage.used === 0);
      expect(drained).toMatchObject({ used: 0, pending: 0 });
      expect(drained.idle).toBeGreaterThanOrEqual(general);
    } finally {
      await holder.end();
    }
  });
});

describe("/metrics without METRICS_TOKEN", () => {
  let server: ServerProcess | undefined;
  afterAll(() => server?.stop());

  it.skipIf(!process.env.DATABASE_URL)("is not served: the API answers it as a route it does not have", async () => {
    server = await startServerProcess("api-server.ts", { METRICS_TOKEN: "" });
    const response = await fetch(`${server.base}/metrics`, { headers: { Authorization: `Bearer ${TOKEN}` } });
    expect(response.status).toBe(404);
    expect(await response.text()).not.toContain("http_request_duration_seconds");
  });
});

describe.skipIf(!process.env.DATABASE_URL)("/metrics on an API server of two workers", () => {
  let server: ServerProcess;
  beforeAll(async () => {
    server = await startServerProcess("api-server.ts", { WEB_CONCURRENCY: "2", METRICS_TOKEN: TOKEN });
  });
  afterAll(() => server?.stop());

  it("answers every scrape, whichever worker takes it, with the requests both workers served", async () => {
    const org = await createOrg("enterprise");
    const key = await insertKey(org.id);
    // A connection of its own each: the primary hands new connections to the workers in turn.
    const answers = await Promise.all(
      Array.from({ length: 20 }, () => fetch(`${server.base}/v1/products`, { headers: { "X-API-Key": key.value, Connection: "close" } })),
    );
    expect(answers.map((answer) => answer.status)).toEqual(Array(20).fill(200));
    for (let scrapeNumber = 0; scrapeNumber < 4; scrapeNumber++) {
      const scraped = await scrape(server.base);
      expect(scraped.status).toBe(200);
      expect(parsePrometheusText(scraped.text).get('http_request_duration_seconds_count{route="/v1/products",method="GET",status_class="2xx"}')).toBe(20);
    }
  });
});
