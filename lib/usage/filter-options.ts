import "server-only";
import { splitEndpoint } from "@/core/request-log";
import { floorToGrain, ROLLUP_GRAIN_MS, rollupKeptSince } from "@/core/usage-grains";
import { usageRows } from "./rows";
import type { Books } from "@/core/enums";

/**
 * The choices of the audit log's and the Usage page's filters: what the organization's traffic
 * has seen, read as usage (lib/usage/rows.ts).
 */

export interface AuditFilterOptionsDto {
  endpoints: string[];
  statuses: number[];
  methods: string[];
}

/** The endpoints and status codes the books' keys have seen (one mode's traffic), from the small rollup table. */
export async function getAuditFilterOptions(books: Books, now = new Date()): Promise<AuditFilterOptionsDto> {
  // Every endpoint and status of the log's retained days, read as usage: the closed days from two
  // snapshot documents rather than a scan of every daily rollup row (220,000 at 10M log rows).
  const rows = await usageRows({
    ...books,
    from: rollupKeptSince("day", now),
    to: new Date(floorToGrain(now.getTime(), "day") + ROLLUP_GRAIN_MS.day),
    bucket: null,
    groupBy: ["endpoint", "status"],
  });
  // Grouped by endpoint and status, every row has both.
  const endpoints = [...new Set(rows.map((row) => row.endpoint!))].map((endpoint) => ({ endpoint, ...splitEndpoint(endpoint) }));
  endpoints.sort((a, b) => a.route.localeCompare(b.route) || a.method.localeCompare(b.method));
  return {
    endpoints: endpoints.map(({ endpoint }) => endpoint),
    statuses: [...new Set(rows.map((row) => row.status!))].sort((a, b) => a - b),
    methods: [...new Set(endpoints.map(({ method }) => method).filter(Boolean))].sort(),
  };
}
