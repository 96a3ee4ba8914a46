import { sql } from "drizzle-orm";
import { getDb } from "@/db";
import { ensureRequestLogPartitions } from "@/db/partitions";
import { rebuildRollups } from "@/db/rollups";
import { insertKey } from "@/tests/helpers/factories";

const DAY_MS = 24 * 3600_000;

/** Endpoints in the shares a busy invoicing integration sends them (reads dominate). */
const ENDPOINTS = [
  "GET /v1/invoices",
  "GET /v1/invoices",
  "GET /v1/invoices",
  "GET /v1/invoices/{id}",
  "GET /v1/invoices/{id}",
  "POST /v1/invoices",
  "POST /v1/invoices/{id}/finalize",
  "GET /v1/customers",
  "GET /v1/customers/{id}",
  "POST /v1/customers",
  "GET /v1/products",
  "GET /v1/analytics",
  "POST /v1/pdf/generate",
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
 * `rows` request_log rows for one organization over the 30 days before `now`, with `keys` keys of
 * skewed traffic (key i gets a share proportional to 1 / (i + 1)²: one busy production key, a few
 * quiet ones), loaded one day at a time in single statements, then the daily rollups rebuilt and
 * the table analysed, as a live table would be.
 */
export async function loadRequestLogAtScale(orgId: string, rows: number, now: Date, keys = 8): Promise<ScaleLog> {
  const started = performance.now();
  const keyIds: string[] = [];
  for (let i = 0; i < keys; i++) keyIds.push((await insertKey(orgId, { name: `Scale key ${i + 1}` })).id);
  await ensureRequestLogPartitions(getDb(), new Date(now.getTime() - 31 * DAY_MS), now);

  // Cumulative weights, so that one random draw per row picks a key or a status.
  const keyWeights = keyIds.map((_, i) => 1 / (i + 1) ** 2);
  const keyTotal = keyWeights.reduce((a, b) => a + b, 0);
  let running = 0;
  const keyBounds = keyWeights.map((weight) => (running += weight / keyTotal));
  let statusRunning = 0;
  const statusBounds = STATUS_SHARES.map(([, share]) => (statusRunning += share / 10_000));
  const statuses = STATUS_SHARES.map(([status]) => status);

  const perDay = Math.ceil(rows / 30);
  for (let day = 0; day < 30; day++) {
    const count = Math.min(perDay, rows - day * perDay);
    if (count <= 0) break;
    const dayEnd = new Date(now.getTime() - day * DAY_MS);
    await getDb().execute(sql`
      insert into request_log (org_id, api_key_id, request_id, method, path, endpoint, status, duration_ms, ip, user_agent, created_at)
      select ${orgId}, k.id, 'req_' || md5(g::text || ${day}::text), split_part(e.endpoint, ' ', 1),
             replace(split_part(e.endpoint, ' ', 2), '{id}', 'in_' || (g % 9973)), e.endpoint, s.status,
             3 + (g * 7) % 180, '203.0.113.' || (g % 250), 'invoicing-sdk/2.4 (node 20)',
             ${dayEnd.toISOString()}::timestamptz - make_interval(secs => g * ${DAY_MS / 1000 / count}::float8)
      from generate_series(1, ${count}) g
      cross join lateral (select random() as key_draw, random() as status_draw, (g * 2654435761::bigint) % ${ENDPOINTS.length} as endpoint_index) r
      cross join lateral (select (${sql.raw(`array[${keyIds.map((id) => `'${id}'`).join(",")}]`)})[
        (select count(*) + 1 from unnest(${sql.raw(`array[${keyBounds.slice(0, -1).join(",") || "2"}]::float8[]`)}) b where b < r.key_draw)] as id) k
      cross join lateral (select (${sql.raw(`array[${statuses.join(",")}]::smallint[]`)})[
        (select count(*) + 1 from unnest(${sql.raw(`array[${statusBounds.slice(0, -1).join(",")}]::float8[]`)}) b where b < r.status_draw)] as status) s
      cross join lateral (select (${sql.raw(`array[${ENDPOINTS.map((e) => `'${e}'`).join(",")}]`)})[1 + r.endpoint_index] as endpoint) e`);
  }
  await rebuildRollups(getDb(), [orgId]);
  await getDb().execute(sql`vacuum analyze request_log`);
  return { keyIds, rows, loadMs: performance.now() - started };
}
