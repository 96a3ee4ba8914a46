import type { PGlite, Transaction } from "@electric-sql/pglite";
import type postgres from "postgres";
import { activeTracing, inStatementSpan } from "@/core/tracing";

type Unsafe = postgres.Sql["unsafe"];

/**
 * A postgres.js statement as drizzle uses it (`.values()`, then awaited), run in a span of its
 * own when the process traces (docs/operations.md#traces). The span opens when the statement is
 * awaited, which is when postgres.js sends it.
 */
function tracedStatement<Pending extends postgres.PendingQuery<postgres.Row[]>>(text: string, pending: Pending): Pending {
  if (!activeTracing()) return pending;
  const traced = {
    values: () => (pending.values(), traced),
    then: (...handlers: Parameters<Promise<unknown>["then"]>) => inStatementSpan(text, () => Promise.resolve(pending)).then(...handlers),
  };
  return traced as unknown as Pending;
}

/**
 * postgres.js as drizzle sees it. Outside transactions every query goes as a named prepared
 * statement: drizzle prepares only queries given a name, so each handler query went out as Parse
 * with Describe, then Bind in a second round trip, and PostgreSQL planned it on every call (the
 * bench's bare handler cost PostgreSQL 0.19 ms a request that way, 0.05 ms prepared). postgres.js
 * keeps each connection's statements by query text; the texts are the code's (values are always
 * parameters, lists at most a page long), and postgres.js ends a connection after 30 to 60
 * minutes, so the cache stays small. Transactions stay unprepared: they are off the hot path.
 * Each statement, in a transaction or not, is traced when the process traces.
 */
export function postgresDriverClient(sql: postgres.Sql | postgres.TransactionSql, prepare = true): postgres.Sql {
  const unsafe = ((query, params, options) => tracedStatement(query, sql.unsafe(query, params, prepare ? { ...options, prepare: true } : options))) as Unsafe;
  const inTransaction = (work: (tx: postgres.Sql) => unknown) => (tx: postgres.TransactionSql) => work(postgresDriverClient(tx, false));
  return Object.assign(Object.create(sql) as postgres.Sql, {
    unsafe,
    // drizzle calls begin(work) and, in a transaction, savepoint(work) (drizzle-orm/postgres-js/session).
    begin: (work: (tx: postgres.Sql) => unknown) => (sql as postgres.Sql).begin(inTransaction(work)),
    savepoint: (work: (tx: postgres.Sql) => unknown) => (sql as postgres.TransactionSql).savepoint(inTransaction(work)),
  });
}

/**
 * PGlite as drizzle sees it: each statement, in a transaction or not, traced when the process
 * traces. A proxy rather than a derived object: PGlite's methods read private fields of the
 * instance itself.
 */
export function pgliteDriverClient<Client extends PGlite | Transaction>(client: Client): Client {
  const query = (text: string, ...rest: unknown[]) => inStatementSpan(text, () => (client.query as (...args: unknown[]) => Promise<unknown>)(text, ...rest));
  // drizzle calls transaction(work) (drizzle-orm/pglite/session).
  const transaction = (work: (tx: Transaction) => unknown) => (client as PGlite).transaction((tx) => work(pgliteDriverClient(tx)) as Promise<unknown>);
  return new Proxy(client, {
    get(target, property) {
      if (property === "query") return query;
      if (property === "transaction" && "transaction" in target) return transaction;
      const value: unknown = Reflect.get(target, property, target);
      return typeof value === "function" ? value.bind(target) : value;
    },
  });
}
