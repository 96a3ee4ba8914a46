import { sql } from "drizzle-orm";
import { getDb } from "@/db";
import { ensureRequestLogPartitions } from "@/db/partitions";
import { rebuildRollups } from "@/db/rollups/statements";
import { insertKey } from "@/tests/helpers/factories";

const DAY_MS = 24 * 3600_000;

/**
 * Endpoints in the shares a busy invoicing integration sends them (reads dominate), each with its
 * typical duration in ms: fast reads, slower writes, a slow analytics read and PDF generation.
 */
const ENDPOINTS: [endpoint: string, share: number, typicalMs: number][] = [
  ["GET /v1/invoices", 24, 18],
  ["GET /v1/invoices/{id}", 14, 9],
  ["POST /v1/invoices", 8, 35],
  ["PATCH /v1/invoices/{id}", 3, 30],
  ["DELETE /v1/invoices/{id}", 1, 20],
  ["POST /v1/invoices/{id}/finalize", 5, 45],
  ["POST /v1/invoices/{id}/pay", 4, 40],
  ["POST /v1/invoices/{id}/void", 1, 40],
  ["GET /v1/customers", 8, 15],
  ["GET /v1/customers/{id}", 7, 8],
  ["POST /v1/customers", 4, 25],
  ["PATCH /v1/customers/{id}", 2, 25],
  ["DELETE /v1/customers/{id}", 1, 20],
  ["GET /v1/products", 6, 12],
  ["GET /v1/products/{id}", 4, 8],
  ["POST /v1/products", 1, 25],
  ["PATCH /v1/products/{id}", 1, 25],
  ["POST /v1/products/{id}/archive", 1, 25],
  ["GET /v1/analytics", 3, 180],
  ["POST /v1/pdf/generate", 2, 420],
];

/**
 * Statuses per 10,000 requests: mostly 200, a few client errors, and rare server errors, so that
 * "one key + 503" is the sparse combination that used to walk millions of index entries.
 */
const STATUS_SHARES: [status: number, per10k: number][] = [
  [200, 8_900],
  [201, 600],
  [400, 150],
  [404, 200],
  [409, 20],
  [422, 60],
  [429, 60],
  [500, 8],
  [503, 2],
];

export interface ScaleLog {
  keyIds: string[];
  rows: number;
  loadMs: number;
}

/**
 * `rows` request_log rows for one organization over the `days` days before `now`, with `keys` keys
 * of skewed traffic (key i gets a share proportional to 1 / (i + 1)²: one busy production key, a
 * few quiet ones), the 20 endpoints in their shares, and durations spread log-normally around each
 * endpoint's typical one; loaded one day at a time in single statements, then the rollups rebuilt
 * and the table analysed, as a live table would be.
 */
export async function loadRequestLogAtScale(orgId: string, rows: number, now: Date, { keys = 8, days = 30 } = {}): Promise<ScaleLog> {
  const started = performance.now();
  const keyIds: string[] = [];
  for (let i = 0; i < keys; i++) keyIds.push((await insertKey(orgId, { name: `Scale key ${i + 1}` })).id);
  await ensureRequestLogPartitions(getDb(), new Date(now.getTime() - (days + 1) * DAY_MS), now);

  // Cumulative weights, so that one random draw per row picks a key or a status.
  const keyWeights = keyIds.map((_, i) => 1 / (i + 1) ** 2);
  const keyTotal = keyWeights.reduce((a, b) => a + b, 0);
  let running = 0;
  const keyBounds = keyWeights.map((weight) => (running += weight / keyTotal));
  let statusRunning = 0;
  const statusBounds = STATUS_SHARES.map(([, share]) => (statusRunning += share / 10_000));
  const statuses = STATUS_SHARES.map(([status]) => status);
  let endpointRunning = 0;
  const endpointTotal = ENDPOINTS.reduce((sum, [, share]) => sum + share, 0);
  const endpointBounds = ENDPOINTS.map(([, share]) => (endpointRunning += share / endpointTotal));

  const perDay = Math.ceil(rows / days);
  for (let day = 0; day < days; day++) {
    const count = Math.min(perDay, rows - day * perDay);
    if (count <= 0) break;
    const dayEnd = new Date(now.getTime() - day * DAY_MS);
    await getDb().execute(sql`
      insert into request_log (org_id, api_key_id, request_id, method, path, endpoint, status, duration_ms, ip, user_agent, created_at)
      select ${orgId}, k.id, 'req_' || md5(g::text || ${day}::text), split_part(e.endpoint, ' ', 1),
             replace(split_part(e.endpoint, ' ', 2), '{id}', 'in_' || (g % 9973)), e.endpoint, s.status,
             greatest(1, round(e.typical_ms * exp((r.d1 + r.d2 + r.d3 - 1.5) * 0.9)))::int, '203.0.113.' || (g % 250), 'invoicing-sdk/2.4 (node 20)',
             ${dayEnd.toISOString()}::timestamptz - make_interval(secs => g * ${DAY_MS / 1000 / count}::float8)
      from generate_series(1, ${count}) g
      cross join lateral (select g as n, random() as key_draw, random() as status_draw, random() as endpoint_draw, random() as d1, random() as d2, random() as d3) r
      cross join lateral (select (${sql.raw(`array[${keyIds.map((id) => `'${id}'`).join(",")}]`)})[
        (select count(*) + 1 from unnest(${sql.raw(`array[${keyBounds.slice(0, -1).join(",") || "2"}]::float8[]`)}) b where b < r.key_draw)] as id) k
      cross join lateral (select (${sql.raw(`array[${statuses.join(",")}]::smallint[]`)})[
        (select count(*) + 1 from unnest(${sql.raw(`array[${statusBounds.slice(0, -1).join(",")}]::float8[]`)}) b where b < r.status_draw)] as status) s
      cross join lateral (select (select count(*) + 1 from unnest(${sql.raw(`array[${endpointBounds.slice(0, -1).join(",")}]::float8[]`)}) b where b < r.endpoint_draw) as i) ei
      cross join lateral (select (${sql.raw(`array[${ENDPOINTS.map(([e]) => `'${e}'`).join(",")}]`)})[ei.i] as endpoint,
                                 (${sql.raw(`array[${ENDPOINTS.map(([, , ms]) => ms).join(",")}]::float8[]`)})[ei.i] as typical_ms) e`);
  }
  await rebuildRollups(getDb(), [orgId]);
  await getDb().execute(sql`vacuum analyze request_log`);
  return { keyIds, rows, loadMs: performance.now() - started };
}
