import { afterAll, beforeEach } from "vitest";
import { getDb } from "@/db";
import { closeClickhouse } from "@/db/clickhouse/client";
import { exportRequestLog } from "@/lib/analytics/export";

// The "clickhouse" project (vitest.config.ts) runs the usage files again with ClickHouse answering
// their reads (docs/features/analytics-store.md): before each test the export sends the store
// every row logged so far, so the reads take those from ClickHouse and only the rows a test logs
// itself from PostgreSQL.
beforeEach(async () => {
  await exportRequestLog(getDb());
});

afterAll(async () => {
  await closeClickhouse();
});
