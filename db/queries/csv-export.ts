import "server-only";
import { sql, type SQL } from "drizzle-orm";
import type { AnyPgColumn } from "drizzle-orm/pg-core";
import { getDb } from "@/db";
import { rowsOf } from "@/db/rows";

// Callers and users choose paths, user agents, methods and names (ids and hints are the server's
// own): a value starting with = + - @ (or a tab, a carriage return, or their full-width forms)
// gets a leading ' so a spreadsheet shows it as text instead of running it as a formula: the
// characters of csv-stringify's escape_formulas.
export const inert = (column: SQL | AnyPgColumn) =>
  sql`case when left(${column}, 1) in ('=', '+', '-', '@', E'\t', E'\r', '＝', '＋', '－', '＠') then '''' || ${column} else ${column} end`;

/**
 * A statement with its parameters written in as literals by PostgreSQL's own format('%L'):
 * COPY takes no parameters, and the planner then sees the values, as it does for a page.
 * Exported for the bench's EXPLAIN.
 */
export async function withLiterals(statement: { sql: string; params: unknown[] }): Promise<string> {
  const template = statement.sql.replaceAll("%", "%%").replace(/\$(\d+)/g, "%$1$$L");
  const params = statement.params.map((param) => sql`${param === null ? null : String(param)}::text`);
  const [row] = rowsOf<{ text: string }>(await getDb().execute(sql`select format(${template}, ${sql.join(params, sql`, `)}) as text`));
  return row!.text;
}
