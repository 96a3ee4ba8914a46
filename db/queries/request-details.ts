import "server-only";
import { and, eq, gte, lt } from "drizzle-orm";
import { getDb } from "@/db";
import { apiKeys, requestDetails, requestLog } from "@/db/schema";
import { requestIdTime } from "@/core/ids";
import { AUDIT_ROW_COLUMNS, auditRowDto, keyOfRow, type AuditLogRowDto } from "./audit-log";
import type { RequestDetailEntry } from "./request-log-writer";

/** Everything stored about one request (docs/features/audit-log.md#request-details): its audit row and, while kept, its details. */
export interface RequestDetailsDto extends AuditLogRowDto, RequestDetailEntry {
  /** False when the request has no details row: a success without an Idempotency-Key, or older than the details are kept. */
  hasDetail: boolean;
  /** The W3C trace id (32 hex digits) the request belonged to; null for rows from before traces were kept. */
  traceId: string | null;
}

/**
 * The organization's request with this id, or null. The id carries the request's time
 * (core/ids.ts), so this reads one entry of the log's primary key and of the details'.
 */
export async function findRequest(orgId: string, requestId: string): Promise<RequestDetailsDto | null> {
  const at = requestIdTime(requestId);
  if (!at) return null;
  const [row] = await getDb()
    .select({
      ...AUDIT_ROW_COLUMNS,
      traceId: requestLog.traceId,
      detailAt: requestDetails.createdAt,
      idempotencyKey: requestDetails.idempotencyKey,
      replayed: requestDetails.replayed,
      errorMessage: requestDetails.errorMessage,
      requestBody: requestDetails.requestBody,
      requestBodyBytes: requestDetails.requestBodyBytes,
      responseBody: requestDetails.responseBody,
      responseBodyBytes: requestDetails.responseBodyBytes,
    })
    .from(requestLog)
    .leftJoin(apiKeys, keyOfRow)
    .leftJoin(
      requestDetails,
      and(eq(requestDetails.orgId, requestLog.orgId), eq(requestDetails.createdAt, requestLog.createdAt), eq(requestDetails.requestId, requestLog.requestId)),
    )
    // The row's time is the id's to the millisecond.
    .where(
      and(
        eq(requestLog.orgId, orgId),
        gte(requestLog.createdAt, at),
        lt(requestLog.createdAt, new Date(at.getTime() + 1)),
        eq(requestLog.requestId, requestId),
      ),
    )
    .limit(1);
  if (!row) return null;
  const { traceId, detailAt, idempotencyKey, replayed, errorMessage, requestBody, requestBodyBytes, responseBody, responseBodyBytes, ...auditRow } = row;
  return {
    ...auditRowDto(auditRow),
    hasDetail: detailAt !== null,
    // Stored as a uuid; shown as in a traceparent header, the form tracing tools search by.
    traceId: traceId?.replaceAll("-", "") ?? null,
    idempotencyKey,
    replayed: replayed ?? false,
    errorMessage,
    requestBody,
    requestBodyBytes,
    responseBody,
    responseBodyBytes,
  };
}
