import { and, eq, type SQL } from "drizzle-orm";
import type { AnyPgColumn } from "drizzle-orm/pg-core";
import type { Books } from "@/core/enums";

/** The rows of a business table that belong to `books`: its organization and mode (docs/features/test-mode.md#separate-books). */
export function inBooks(table: { orgId: AnyPgColumn; mode: AnyPgColumn }, books: Books): SQL {
  return and(eq(table.orgId, books.orgId), eq(table.mode, books.mode))!;
}
