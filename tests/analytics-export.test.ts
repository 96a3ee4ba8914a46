import { createServer, type Socket } from "node:net";
import type { AddressInfo } from "node:net";
import { sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { getDb } from "@/db";
import { rowsOf } from "@/db/rows";
import { clickhouse, closeClickhouse } from "@/db/clickhouse/client";
import { ANALYTICS_DESTINATION, exportedThrough } from "@/db/queries/analytics-export";
import { exportRequestLog } from "@/lib/analytics/export";
import { createApiApp } from "@/lib/api/app";
import { createOrg, insertKey } from "./helpers/factories";
import { logRequest } from "./helpers/request-log";
import { EMBEDDED_CLICKHOUSE } from "./helpers/clickhouse";
import { eventually } from "./helpers/eventually";

// The export of the request log to ClickHouse (docs/features/analytics-store.md#the-export), on
// ClickHouse embedded in this process (chdb) through the same client a server uses.

async function storeCount(orgId: string, final = true): Promise<number> {
  const result = await clickhouse().query({
    query: `SELECT count() AS n FROM request_log ${final ? "FINAL" : ""} WHERE org_id = {orgId:String}`,
    query_params: { orgId },
    format: "JSONEachRow",
  });
  return Number((await result.json<{ n: string | number }>())[0]!.n);
}

async function logCount(orgId: string): Promise<number> {
  return Number(rowsOf<{ n: number }>(await getDb().execute(sql`select count(*)::int as n from request_log where org_id = ${orgId}`))[0]!.n);
}

describe("the request log's export to ClickHouse", () => {
  beforeAll(async () => {
    process.env.CLICKHOUSE_URL = EMBEDDED_CLICKHOUSE;
    await closeClickhouse();
  });
  afterAll(async () => {
    await closeClickhouse();
    delete process.env.CLICKHOUSE_URL;
  });

  it("copies every row with its key's mode, then only what came after, and keeps a row sent twice once", async () => {
    const org = await createOrg("pro");
    const live = await insertKey(org.id);
    const test = await insertKey(org.id, { mode: "test" });
    const now = Date.now();
    for (let i = 0; i < 30; i++)
      await logRequest({
        orgId: org.id,
        apiKeyId: i % 3 === 0 ? test.id : live.id,
        at: new Date(now - i * 1000),
        status: i % 5 === 0 ? 500 : 200,
        durationMs: i,
      });
    expect(await exportRequestLog(getDb())).toBeGreaterThanOrEqual(30);
    expect(await storeCount(org.id)).toBe(30);
    const modes = await clickhouse().query({
      query: "SELECT mode, count() AS n FROM request_log FINAL WHERE org_id = {orgId:String} GROUP BY mode ORDER BY mode",
      query_params: { orgId: org.id },
      format: "JSONEachRow",
    });
    // 64-bit counts come quoted or not, as the server's output_format_json_quote_64bit_integers says.
    expect((await modes.json<{ mode: string; n: string | number }>()).map(({ mode, n }) => [mode, Number(n)])).toEqual([
      ["live", 20],
      ["test", 10],
    ]);

    // One run at a time, across processes: the second finds the lease held.
    await logRequest({ orgId: org.id, apiKeyId: live.id, at: new Date() });
    expect((await Promise.all([exportRequestLog(getDb()), exportRequestLog(getDb())])).sort()).toEqual([1, null]);
    expect(await exportRequestLog(getDb())).toBe(0);

    // Past a gap in the ids far wider than a read covers (batches rolled back): found all the same.
    await getDb().execute(sql`select setval('request_log_id_seq', (select last_value from request_log_id_seq) + 1000000)`);
    await logRequest({ orgId: org.id, apiKeyId: live.id, at: new Date() });
    expect(await exportRequestLog(getDb())).toBe(1);

    // A run that wrote its batch but died before moving the cursor sends the batch again.
    await getDb().execute(sql`update analytics_exports set exported_through = 0 where destination = ${ANALYTICS_DESTINATION}`);
    await exportRequestLog(getDb());
    expect(await storeCount(org.id, false)).toBe(64);
    expect(await storeCount(org.id)).toBe(32);
    expect(await logCount(org.id)).toBe(32);
  });

  it("ends a run under steady traffic, leaving what came after it to the next", async () => {
    const org = await createOrg("pro");
    const key = await insertKey(org.id);
    await logRequest({ orgId: org.id, apiKeyId: key.id, at: new Date() });
    let logging = true;
    const traffic = (async () => {
      // A turn of the event loop between requests, as requests from a network take: on PGlite a
      // write alone resolves in microtasks and would starve the export's I/O.
      while (logging) {
        await logRequest({ orgId: org.id, apiKeyId: key.id, at: new Date() });
        await new Promise((turn) => setImmediate(turn));
      }
    })();
    try {
      expect(await exportRequestLog(getDb())).toBeGreaterThan(0);
    } finally {
      logging = false;
      await traffic;
    }
    await exportRequestLog(getDb());
    expect(await storeCount(org.id)).toBe(await logCount(org.id));
  });

  it("loses no row while ClickHouse does not answer, and the gateway answers meanwhile", async () => {
    const org = await createOrg("pro");
    const key = await insertKey(org.id);
    await exportRequestLog(getDb());
    const before = await exportedThrough(getDb());

    // A ClickHouse that takes connections and never answers.
    const sockets = new Set<Socket>();
    const silent = createServer((socket) => void sockets.add(socket));
    await new Promise<void>((listening) => silent.listen(0, "127.0.0.1", listening));
    process.env.CLICKHOUSE_URL = `http://127.0.0.1:${(silent.address() as AddressInfo).port}`;
    await closeClickhouse();
    const app = createApiApp();
    const call = async () => expect((await app.request("/v1/products?limit=1", { headers: { "X-API-Key": key.value } })).status).toBe(200);
    await call();
    const exporting = exportRequestLog(getDb());
    await eventually(
      () => sockets.size,
      (open) => open > 0,
    );
    // Requests answered and logged while the export waits on the store.
    for (let i = 0; i < 9; i++) await call();
    expect(await logCount(org.id)).toBe(10);
    for (const socket of sockets) socket.destroy();
    silent.close();
    await expect(exporting).rejects.toThrow();
    expect(await exportedThrough(getDb())).toBe(before);

    // The store is back: the next run sends what the failed one did not.
    process.env.CLICKHOUSE_URL = EMBEDDED_CLICKHOUSE;
    await closeClickhouse();
    expect(await exportRequestLog(getDb())).toBe(10);
    expect(await storeCount(org.id)).toBe(10);
  });
});
