import { timestamp } from "drizzle-orm/pg-core";

/** The row's creation time, set by the database. */
export const createdAt = () => timestamp("created_at", { withTimezone: true, mode: "date" }).notNull().defaultNow();
