import { pgEnum, timestamp } from "drizzle-orm/pg-core";
import { MODE_VALUES } from "@/core/enums";

/** The row's creation time, set by the database. */
export const createdAt = () => timestamp("created_at", { withTimezone: true, mode: "date" }).notNull().defaultNow();

export const modeEnum = pgEnum("mode", MODE_VALUES);
/**
 * Live or test (docs/features/test-mode.md). No default: a write that forgot its mode would land
 * in the live books, so the database refuses it instead.
 */
export const mode = () => modeEnum("mode").notNull();
