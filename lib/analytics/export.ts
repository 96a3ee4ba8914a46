import type { DbOrTx } from "@/db";
import { randomUUID } from "node:crypto";
import type { ClickHouseClient } from "@clickhouse/client";
import { clickhouse, clickhouseUrl } from "@/db/clickhouse/client";
import { migrateClickhouse } from "@/db/clickhouse/migrate";
import { insertRequestLog } from "@/db/clickhouse/request-log";
import { claimExport, markExported, newestUnexportedId, releaseExport, requestsToExport } from "@/db/queries/analytics-export";

/**
 * Copies the request log to the analytics store (docs/features/analytics-store.md#the-export): the
 * rows after the cursor, a batch at a time, each batch written to the store before the cursor
 * moves past it. A run that fails (the store away, a timeout) leaves the cursor where the store's
 * rows end, and the next run sends from there: at least once, and a row sent twice is kept once.
 */

/** Rows a batch carries: one insert, a few MB of JSON. */
const BATCH_ROWS = 20_000;
/** How long a run's lease lasts unless a batch renews it: longer than a batch may take (the client's timeout is 10 s). */
const LEASE_MS = 30_000;

const schemaReady = new WeakMap<ClickHouseClient, Promise<unknown>>();

/** The store's schema, migrated once a client; a failed attempt is made again by the next run. */
function readySchema(): Promise<unknown> {
  const client = clickhouse();
  let ready = schemaReady.get(client);
  if (!ready) {
    ready = migrateClickhouse().catch((error: unknown) => {
      schemaReady.delete(client);
      throw error;
    });
    schemaReady.set(client, ready);
  }
  return ready;
}

/**
 * Exports every row committed before the run, oldest first, telling `onBatch` the rows sent so far
 * after each batch; returns how many it sent, or null when another run (of this process or another)
 * holds the lease.
 */
export async function exportRequestLog(db: DbOrTx, onBatch?: (sent: number) => void): Promise<number | null> {
  if (!clickhouseUrl()) return 0;
  // Read first: a process with nothing to send writes nothing (no lease taken and given back every second).
  const newest = await newestUnexportedId(db);
  if (newest === null) return 0;
  const token = randomUUID();
  let through = await claimExport(db, token, LEASE_MS);
  if (through === null) return null;
  let sent = 0;
  try {
    await readySchema();
    // Rows committed after the run began wait for the next: a run ends, under any traffic.
    while (through < newest) {
      const rows = await requestsToExport(db, through, BATCH_ROWS);
      if (rows.length === 0) return sent;
      await insertRequestLog(rows);
      through = rows.at(-1)!.id;
      if (!(await markExported(db, token, through, LEASE_MS))) return sent;
      sent += rows.length;
      onBatch?.(sent);
    }
    return sent;
  } finally {
    await releaseExport(db, token);
  }
}
