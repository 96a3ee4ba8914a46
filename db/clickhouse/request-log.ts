import type { ExportedRequest } from "@/db/queries/analytics-export";
import { clickhouse } from "./client";

/** Writes exported request-log rows to the store; a row sent again is kept once (db/clickhouse/migrations). */
export async function insertRequestLog(rows: readonly ExportedRequest[]): Promise<void> {
  if (rows.length === 0) return;
  await clickhouse().insert({ table: "request_log", values: rows as ExportedRequest[], format: "JSONEachRow" });
}
