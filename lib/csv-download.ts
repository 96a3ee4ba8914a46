import "server-only";
import type { z } from "zod";
import { utcDay } from "@/core/time";
import { filtersError } from "@/lib/audit-filters";
import type { OrgAccess } from "@/lib/org-access";

export function refusal(status: number, message: string): Response {
  return new Response(message, { status, headers: { "Content-Type": "text/plain; charset=utf-8", "Cache-Control": "no-store" } });
}

/** A CSV download that no cache keeps and no browser sniffs into something else. */
export function csvResponse(body: ReadableStream<Uint8Array>, filename: string): Response {
  return new Response(body, {
    headers: {
      "Content-Type": "text/csv; charset=utf-8",
      "Content-Disposition": `attachment; filename="${filename}"`,
      "Cache-Control": "no-store",
      "X-Content-Type-Options": "nosniff",
    },
  });
}

export interface LogDownload<Filters> {
  /** Whether the viewer may read the log, from their role in the database, asked before any row is read. */
  access: Promise<OrgAccess>;
  filters: { success: true; data: Filters } | { success: false; error: z.ZodError };
  /** Every row matching the filters as CSV, streamed by the database. */
  rows: (orgId: string, filters: Filters) => Promise<ReadableStream<Uint8Array>>;
  /** The file's name before the organization and the day: "audit-log" gives audit-log-acme-2026-11-25.csv. */
  name: string;
  now: Date;
}

/**
 * A log (the audit log, the activity history) as CSV: every row matching the URL's filters,
 * streamed by the database as the client reads it, so there is no row cap.
 */
export async function logCsvDownload<Filters>({ access, filters, rows, name, now }: LogDownload<Filters>): Promise<Response> {
  const granted = await access;
  if (!granted.ok) return refusal(granted.status, granted.message);
  if (!filters.success) return refusal(400, `The export's filters are not valid: ${filtersError(filters.error)}`);
  const { orgId, orgSlug } = granted.membership;
  return csvResponse(await rows(orgId, filters.data), `${name}-${orgSlug}-${utcDay(now)}.csv`);
}
