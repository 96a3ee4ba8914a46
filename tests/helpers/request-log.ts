import { writeRequestLog, type RequestLogEntry } from "@/db/queries/request-log-writer";
import { newRequestId } from "@/core/ids";

/**
 * Logs a request the way the gateway does (audit row and daily rollup together), filling in
 * what a test does not care about. The method comes from the endpoint, as in the gateway.
 */
export async function logRequest(entry: Partial<RequestLogEntry> & Pick<RequestLogEntry, "orgId" | "apiKeyId" | "at">): Promise<RequestLogEntry> {
  const endpoint = entry.endpoint ?? "GET /v1/invoices";
  const row: RequestLogEntry = {
    requestId: newRequestId(entry.at.getTime()),
    method: endpoint.split(" ")[0]!,
    path: endpoint.split(" ")[1]!,
    endpoint,
    status: 200,
    durationMs: 42,
    ip: "203.0.113.7",
    userAgent: "vitest",
    touchesKey: true,
    errorCode: null,
    traceId: null,
    detail: null,
    ...entry,
  };
  await writeRequestLog(row);
  return row;
}
