// Copies the request log to the analytics store CLICKHOUSE_URL names, from the export's cursor to
// the last committed row, then exits (docs/features/analytics-store.md#moving-an-existing-installation).
//
//   CLICKHOUSE_URL=https://… DATABASE_URL=postgres://… npm run analytics:backfill
import { closeDb, getDb } from "@/db";
import { clickhouseUrl, closeClickhouse } from "@/db/clickhouse/client";
import { exportRequestLog } from "@/lib/analytics/export";

if (!clickhouseUrl()) {
  console.error("Set CLICKHOUSE_URL to the ClickHouse to copy the request log to.");
  process.exit(2);
}
try {
  const sent = await exportRequestLog(getDb(), (sofar) => console.log(`${sofar.toLocaleString("en-US")} rows copied`));
  if (sent === null) {
    console.error("Another process is exporting the log now; run this again once it is done, or let the servers finish it.");
    process.exitCode = 1;
  } else {
    console.log(`The request log is in ClickHouse: ${sent.toLocaleString("en-US")} rows copied by this run.`);
  }
} finally {
  await closeClickhouse();
  await closeDb();
}
