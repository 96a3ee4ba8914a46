import type { PGlite, Transaction } from "@electric-sql/pglite";
import type postgres from "postgres";
import { activeTracing, inStatementSpan } from "@/core/tracing";

type Unsafe = postgres.Sql["unsafe"];

// Statements this process sent on its pool and is awaiting, counted once the metrics ask
// (docs/operations.md#metrics); null: not counted, and a statement passes untouched.
let statementsInFlight: number | null = null;

/** Starts counting the statements in flight on the pool: what the pool's waiting gauge reads. */
export function countStatementsInFlight(): void {
  statementsInFlight ??= 0;
}

/** Statements sent on the pool and not yet answered, running or waiting for a connection. */
export function statementsInFlightNow(): number {
  return statementsInFlight ?? 0;
}

/** `work`, one statement on the pool: in its span while the process traces, counted while the metrics count. */
export async function watchedStatement<T>(text: string, work: () => Promise<T>): Promise<T> {
  if (statementsInFlight === null) return inStatementSpan(text, work);
  statementsInFlight++;
  try {
    return await inStatementSpan(text, work);
  } finally {
    statementsInFlight--;
  }
}

/**
 * A postgres.js statement as drizzle uses it (`.values()`, then awaited), watched as above. The
 * watch starts when the statement is awaited, which is when postgres.js sends it.
 */
function watched<Pending extends postgres.PendingQuery<postgres.Row[]>>(text: string, pending: Pending): Pending {
  if (!activeTracing() && statementsInFlight === null) return pending;
  const watching = {
    values: () => (pending.values(), watching),
    then: (...handlers: Parameters<Promise<unknown>["then"]>) => watchedStatement(text, () => Promise.resolve(pending)).then(...handlers),
  };
  return watching as unknown as Pending;
}

/**
 * postgres.js as drizzle sees it. Outside transactions every query goes as a named prepared
 * statement: drizzle prepares only queries given a name, so each handler query went out as Parse
 * with Describe, then Bind in a second round trip, and PostgreSQL planned it on every call (the
 * bench's bare handler cost PostgreSQL 0.19 ms a request that way, 0.05 ms prepared). postgres.js
 * keeps each connection's statements by query text; the texts are the code's (values are always
 * parameters, lists at most a page long), and postgres.js ends a connection after 30 to 60
 * minutes, so the cache stays small. Transactions stay unprepared: they are off the hot path.
 * Each statement, in a transaction or not, is traced and counted (`watchedStatement`).
 */
export function postgresDriverClient(sql: postgres.Sql | postgres.TransactionSql, prepare = true): postgres.Sql {
  const unsafe = ((query, params, options) => watched(query, sql.unsafe(query, params, prepare ? { ...options, prepare: true } : options))) as Unsafe;
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
