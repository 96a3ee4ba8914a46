import { sql } from "drizzle-orm";
import { customType, pgEnum, timestamp } from "drizzle-orm/pg-core";
import { MODE_VALUES } from "@/core/enums";

/** The row's creation time, set by the database. */
export const createdAt = () => timestamp("created_at", { withTimezone: true, mode: "date" }).notNull().defaultNow();

export const modeEnum = pgEnum("mode", MODE_VALUES);
/**
 * Live or test (docs/features/test-mode.md). No default: a write that forgot its mode would land
 * in the live books, so the database refuses it instead.
 */
export const mode = () => modeEnum("mode").notNull();

/** A transaction id (PostgreSQL's xid8), read and written as its decimal text. */
export const xid8 = customType<{ data: string; driverData: string }>({ dataType: () => "xid8" });

/**
 * The id of the transaction that wrote the row: with the row's id, the order in which rows of a
 * table became visible, which a reader walks without skipping a row whose transaction committed
 * late (docs/features/log-streams.md#delivery). Set by the database, never by the code.
 */
export const writtenBy = () =>
  xid8("tx")
    .notNull()
    .default(sql`pg_current_xact_id()`);
