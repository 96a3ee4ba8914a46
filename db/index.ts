import fs from "node:fs";
import type { Readable } from "node:stream";
import { finished } from "node:stream/promises";
import { PGlite } from "@electric-sql/pglite";
import type { PgDatabase, PgQueryResultHKT } from "drizzle-orm/pg-core";
import { drizzle as drizzlePglite } from "drizzle-orm/pglite";
import { drizzle as drizzlePostgres } from "drizzle-orm/postgres-js";
import postgres from "postgres";
import { acquireDataDirLock } from "./locks/data-dir";
import { pgliteDriverClient, postgresDriverClient, watchedStatement } from "./driver-clients";
import { inStatementSpan } from "@/core/tracing";
import { wholeNumberFromEnv } from "@/core/env-number";
import { pgliteDataDir } from "./pglite-dir";
import { openPostgres } from "./postgres-url";
import * as schema from "./schema";

export type Db = PgDatabase<PgQueryResultHKT, typeof schema>;
export type Tx = Parameters<Parameters<Db["transaction"]>[0]>[0];
export type DbOrTx = Db | Tx;

interface DbHandle {
  db: Db;
  kind: "postgres" | "pglite";
  close: () => Promise<void>;
  /** postgres.js client, for LISTEN/NOTIFY; absent on PGlite. */
  sql?: postgres.Sql;
  /** A second, small postgres.js client for COPY, opened on first use (see copyOut). */
  copySql?: postgres.Sql;
  /** Each lane's connection of its own, opened on first use (see queryPrepared). */
  lanes?: Partial<Record<Lane, postgres.Sql>>;
  pglite?: PGlite;
}

// Next bundles its own copy of this module beside the one server.ts loads; one handle per process
// lives on globalThis so both copies share it (two PGlite instances on one folder lose rows).
const HANDLE = Symbol.for("invoicing.db.handle");
type GlobalWithHandle = typeof globalThis & { [HANDLE]?: DbHandle };

/** The application name the process's pool connects under. */
export function poolApplicationName(): string {
  return `invoicing-service ${process.pid}`;
}

/** The smallest pool a server process works with: a background task's lock takes one connection, its work another. */
const MIN_POOL_SIZE = 2;
const DEFAULT_POOL_SIZE = 10;

/** The pool's size: connections the process opens at most, its lanes' included (a log-stream delivery process opens one). */
export function poolMaxConnections(): number {
  return wholeNumberFromEnv("DATABASE_POOL_SIZE", DEFAULT_POOL_SIZE, "connections");
}

/** Stops a server's start on a pool too small for a background task's lock and its work, which would wait for each other. */
export function checkServerPoolSize(): void {
  wholeNumberFromEnv("DATABASE_POOL_SIZE", DEFAULT_POOL_SIZE, "connections", { min: MIN_POOL_SIZE });
}

/**
 * The gateway's two streams of batches (core/group-commit.ts runs one batch of each at a time).
 * Each keeps a connection of its own, out of the pool's size when it leaves the rest at least two
 * (a background task holds one for its lock while its work takes another, servers/maintenance.ts):
 * postgres.js hands its idle connections out in turn, so on a pool that had opened ten a lone
 * request's admission, handler query and log write each found a backend idle for ten statements,
 * and its statement took half as long again (docs/performance.md#the-gateways-own-cost). A lane's
 * batch never waits behind the handlers' queries for a connection either.
 */
export type Lane = "admission" | "request_log";
const LANES: Lane[] = ["admission", "request_log"];

function laneConnections(): number {
  return poolMaxConnections() >= LANES.length + MIN_POOL_SIZE ? LANES.length : 0;
}

function open(): DbHandle {
  if (process.env.DATABASE_URL) {
    const sql = openPostgres({
      max: poolMaxConnections() - laneConnections(),
      onnotice: () => {},
      // Named by process, so PostgreSQL's view of the connections tells each pool's apart (db/pool-usage.ts).
      connection: { application_name: poolApplicationName() },
    });
    const db = drizzlePostgres({ client: postgresDriverClient(sql), schema, casing: undefined }) as unknown as Db;
    const opened: DbHandle = {
      db,
      kind: "postgres",
      sql,
      close: async () => {
        const clients = [sql, opened.copySql, ...Object.values(opened.lanes ?? {})];
        await Promise.all(clients.map((client) => client?.end({ timeout: 5 })));
      },
    };
    return opened;
  }
  const dir = pgliteDataDir();
  let release = () => {};
  if (!dir.startsWith("memory://")) {
    fs.mkdirSync(dir, { recursive: true });
    release = acquireDataDirLock(dir);
  }
  const pglite = new PGlite(dir, { loadDataDir: snapshotToLoad() });
  const db = drizzlePglite({ client: pgliteDriverClient(pglite), schema }) as unknown as Db;
  return {
    db,
    kind: "pglite",
    pglite,
    close: async () => {
      await pglite.close();
      release();
    },
  };
}

/**
 * PGLITE_SNAPSHOT: a data directory saved by PGlite's dumpDataDir, to start an in-memory database
 * from instead of an empty one. The integration tests migrate one database and start most files
 * from its snapshot (0.6 s instead of 3.5 s for a new database and its migrations).
 */
function snapshotToLoad(): Blob | undefined {
  const file = process.env.PGLITE_SNAPSHOT;
  return file ? new Blob([fs.readFileSync(file)]) : undefined;
}

/** The process's drivers themselves, for what drizzle does not carry (the job queue's own SQL). */
export function databaseHandle(): Pick<DbHandle, "kind" | "sql" | "pglite"> {
  return handle();
}

function handle(): DbHandle {
  const g = globalThis as GlobalWithHandle;
  g[HANDLE] ??= open();
  return g[HANDLE];
}

/** The process's one database client, opened on first use (never during `next build`). */
export function getDb(): Db {
  return handle().db;
}

export function databaseKind(): DbHandle["kind"] {
  return handle().kind;
}

export function postgresClient(): postgres.Sql | undefined {
  return handle().sql;
}

type Parameter = string | number | boolean | null;

/** A PostgreSQL array literal, for a parameter cast to an array type (`$1::text[]`). */
export function arrayLiteral(values: Parameter[]): string {
  const element = (value: Parameter) => (value === null ? "NULL" : `"${String(value).replace(/[\\"]/g, (c) => `\\${c}`)}"`);
  return `{${values.map(element).join(",")}}`;
}

/** The lane's own connection, or the pool when it is too small to spare one. Named as the pool, whose gauges count it. */
function laneClient(current: DbHandle, pool: postgres.Sql, lane: Lane): postgres.Sql {
  if (laneConnections() === 0) return pool;
  current.lanes ??= {};
  return (current.lanes[lane] ??= openPostgres({
    max: 1,
    onnotice: () => {},
    connection: { application_name: poolApplicationName() },
  }));
}

/**
 * Runs one statement of the request path as a prepared statement: postgres.js names it by its
 * text and each connection parses and plans it once; a `lane`'s on its own connection. PGlite
 * runs in this process, where there is no round trip to save.
 */
export async function queryPrepared<T>(text: string, values: (Parameter | Parameter[])[], lane?: Lane): Promise<T[]> {
  // Neither driver sends a JS array as an array parameter whatever its type: they go as literals.
  const params = values.map((value) => (Array.isArray(value) ? arrayLiteral(value) : value));
  const current = handle();
  if (current.sql) {
    const client = lane ? laneClient(current, current.sql, lane) : current.sql;
    return watchedStatement(text, async () => (await client.unsafe(text, params, { prepare: true })) as unknown as T[]);
  }
  return inStatementSpan(text, async () => (await current.pglite!.query<T>(text, params)).rows);
}

/** Connections that may stream COPY at once; more exports wait for one (postgres.js queues them). */
const COPY_CONNECTIONS = 2;
const COPY_CHUNK_BYTES = 64 * 1024;

/** The handle's own COPY client, opened once: every export of the process shares its connections. */
function copyClient(current: DbHandle): postgres.Sql {
  current.copySql ??= openPostgres({
    max: COPY_CONNECTIONS,
    idle_timeout: 60,
    onnotice: () => {},
    connection: { application_name: "invoicing-service copy" },
  });
  return current.copySql;
}

/**
 * Streams `COPY (query) TO STDOUT WITH (options)`: PostgreSQL encodes the rows, and the stream
 * asks for more only as its reader takes them (a slow client pauses the connection's socket).
 * A COPY can last as long as its reader, so it runs on its own small client and never holds one
 * of the request path's connections. On PGlite, which has no COPY stream, the result is built
 * whole in memory first: the embedded database is for development and demos.
 */
export function copyOut(query: string, options: string): ReadableStream<Uint8Array> {
  const current = handle();
  if (!current.sql) {
    return new ReadableStream({
      async start(controller) {
        const result = await current.pglite!.query(`copy (${query}) to '/dev/blob' with (${options})`);
        controller.enqueue(new Uint8Array(await result.blob!.arrayBuffer()));
        controller.close();
      },
    });
  }
  const running = copyClient(current).unsafe(`copy (${query}) to stdout with (${options})`);
  let source: Readable | undefined;
  let cancelled = false;
  return new ReadableStream(
    {
      async start(controller) {
        source = await running.readable();
        // PostgreSQL sends one message per row: they are passed on in chunks of about 64 KiB,
        // since a million tiny chunks cost more than the COPY itself.
        let pending: Buffer[] = [];
        let pendingBytes = 0;
        const flush = () => {
          controller.enqueue(new Uint8Array(Buffer.concat(pending, pendingBytes)));
          pending = [];
          pendingBytes = 0;
        };
        source.on("data", (row: Buffer) => {
          pending.push(row);
          pendingBytes += row.byteLength;
          if (pendingBytes < COPY_CHUNK_BYTES) return;
          flush();
          if ((controller.desiredSize ?? 0) <= 0) source!.pause();
        });
        source.once("end", () => {
          if (cancelled) return;
          if (pendingBytes > 0) flush();
          controller.close();
        });
        source.once("error", (error) => cancelled || controller.error(error));
      },
      pull() {
        source?.resume();
      },
      async cancel() {
        // The reader left: cancel the statement, and let the rest of its data drain so that the
        // connection reads the cancellation and goes back to the pool instead of staying paused.
        cancelled = true;
        if (!source) return;
        const drained = finished(source).catch(() => {});
        source.removeAllListeners("data").resume();
        await running.cancel();
        await drained;
      },
    },
    { highWaterMark: 4 },
  );
}

const BEFORE_CLOSE = Symbol.for("invoicing.db.before-close");
type GlobalWithHooks = typeof globalThis & { [BEFORE_CLOSE]?: Set<() => Promise<void>> };

/** Work that uses the client and must end before it closes (the job queue's workers). */
export function beforeDbClose(stop: () => Promise<void>): void {
  const g = globalThis as GlobalWithHooks;
  (g[BEFORE_CLOSE] ??= new Set()).add(stop);
}

export async function closeDb(): Promise<void> {
  const hooks = (globalThis as GlobalWithHooks)[BEFORE_CLOSE];
  if (hooks) {
    const stops = [...hooks];
    hooks.clear();
    await Promise.all(stops.map((stop) => stop()));
  }
  const g = globalThis as GlobalWithHandle;
  const current = g[HANDLE];
  g[HANDLE] = undefined;
  await current?.close();
}

export { schema };
