import { bigint, pgTable, text, timestamp } from "drizzle-orm/pg-core";

/**
 * How far the request log has been copied to an analytics store (docs/features/analytics-store.md):
 * the request log is the outbox, and this row its cursor. Rows with an id up to `exportedThrough`
 * are in the store; the ids are given in commit order (db/queries/request-log-writer.ts), so no row
 * at or below it can appear later.
 */
export const analyticsExports = pgTable("analytics_exports", {
  /** The store copied to: "clickhouse". */
  destination: text("destination").primaryKey(),
  exportedThrough: bigint("exported_through", { mode: "number" }).notNull().default(0),
  /** The run exporting now, one across every process: its token, and when its lease ends unless renewed (a run that died lets it lapse). */
  leaseToken: text("lease_token"),
  leasedUntil: timestamp("leased_until", { withTimezone: true }),
  updatedAt: timestamp("updated_at", { withTimezone: true }).notNull().defaultNow(),
});
