import { sql, type SQL } from "drizzle-orm";
import type PgBoss from "pg-boss";
import type postgres from "postgres";
import { arrayLiteral, beforeDbClose, databaseHandle, type DbOrTx } from "./index";
import { withMigrationLock } from "./locks/migration";
import { rowsOf } from "./rows";
import { log } from "@/core/log";

/**
 * The job queue: pg-boss, in its own `pgboss` schema of the application's database, on the
 * process's one client (PostgreSQL through postgres.js, or the embedded PGlite), so a job is sent
 * in the same transaction as the change that causes it and survives whatever happens to the
 * process afterwards. pg-boss takes its jobs with SKIP LOCKED: any number of processes may work
 * one queue, each job goes to one of them.
 */

interface QueryResult {
  rows: unknown[];
  rowCount: number;
}
interface Executor {
  executeSql(text: string, values?: unknown[]): Promise<QueryResult>;
}

/** pg-boss's values as node-postgres would send them: arrays as array literals, objects as JSON text, undefined as null. */
function normalized(values: unknown[]): unknown[] {
  return values.map((value) => {
    if (value === undefined) return null;
    if (Array.isArray(value)) return arrayLiteral(value as (string | number | boolean | null)[]);
    if (value !== null && typeof value === "object" && !(value instanceof Date)) return JSON.stringify(value);
    return value;
  });
}

/** `run` on a connection of its own; one left inside a failed BEGIN is rolled back before it returns to the pool. */
async function onReservedConnection<T>(pool: postgres.Sql, run: (connection: postgres.ReservedSql) => Promise<T>): Promise<T> {
  const connection = await pool.reserve();
  try {
    return await run(connection);
  } catch (error) {
    await connection`rollback`.catch(() => undefined);
    throw error;
  } finally {
    connection.release();
  }
}

/**
 * What the queue started and has not finished: its statements and the handlers of the jobs it took.
 * pg-boss's stop can return before them: it does not wait for a fetch in flight (whose jobs then
 * run), and it completes or fails a job without awaiting the statement. The database closes after them.
 */
const unfinished = new Set<Promise<unknown>>();

/** `work`, one of the things the queue's stop waits for before the database closes. */
export function queueWork<T>(work: Promise<T>): Promise<T> {
  unfinished.add(work);
  const done = () => unfinished.delete(work);
  work.then(done, done);
  return work;
}

async function unfinishedSettled(): Promise<void> {
  while (unfinished.size > 0) {
    await Promise.allSettled([...unfinished]);
    // What a settled one leads to (a fetch to its jobs' handler, a handler to its job's completion) starts before the next turn.
    await new Promise((resolve) => setImmediate(resolve));
  }
}

/** The process's client as pg-boss wants it. A text without values may hold several statements (its migrations). */
function clientExecutor(): Executor {
  const handle = databaseHandle();
  return {
    executeSql: (text, values = []) => queueWork(executeOn(handle, text, values)),
  };
}

async function executeOn(handle: ReturnType<typeof databaseHandle>, text: string, values: unknown[]): Promise<QueryResult> {
  if (handle.sql) {
    const params = normalized(values) as postgres.ParameterOrJSON<never>[];
    // Its migrations are one text with BEGIN and COMMIT: they need a connection of their own.
    const result =
      values.length === 0 ? await onReservedConnection(handle.sql, (connection) => connection.unsafe(text).simple()) : await handle.sql.unsafe(text, params);
    const rows = [...result];
    return { rows, rowCount: result.count ?? rows.length };
  }
  const pglite = handle.pglite!;
  if (values.length === 0) {
    const results = await pglite.exec(text).catch(async (error: unknown) => {
      // The one connection must not stay inside the text's failed BEGIN.
      await pglite.exec("rollback").catch(() => undefined);
      throw error;
    });
    const last = results.at(-1);
    return { rows: last?.rows ?? [], rowCount: last?.affectedRows ?? last?.rows.length ?? 0 };
  }
  const result = await pglite.query(text, normalized(values));
  return { rows: result.rows, rowCount: result.affectedRows ?? result.rows.length };
}

/** pg-boss's `$1` text as drizzle SQL with the same values as parameters. */
function drizzleSql(text: string, values: unknown[]): SQL {
  const parts = text.split(/\$(\d+)/);
  const params = normalized(values);
  return sql.join(parts.map((part, i) => (i % 2 === 0 ? sql.raw(part) : sql`${params[Number(part) - 1]}`)));
}

/** A transaction (or the client) as pg-boss's `db` option: the job is sent with the change, or not at all. */
export function executorOf(db: DbOrTx): Executor {
  return {
    async executeSql(text, values = []) {
      const rows = rowsOf<unknown>(await db.execute(drizzleSql(text, values)));
      return { rows, rowCount: rows.length };
    },
  };
}

/** The queues, created when the queue starts (pg-boss wants a queue before its first job). */
export const WEBHOOK_QUEUE = "webhook-delivery";
export const MAIL_QUEUE = "notification-email";
const QUEUES = [WEBHOOK_QUEUE, MAIL_QUEUE];

const MAINTENANCE_SECONDS = 15;

/** Looks before each try; the last try's error is thrown if the queue still is not there. */
const QUEUE_CREATE_TRIES = 5;

/**
 * Creates `queue` unless it exists. Processes that start together on a new database (several API
 * processes, one per core) each find it missing and race to create it: pg-boss's create_queue
 * takes no lock of its own, so the losers fail, with a deadlock or a duplicate name. A loser's
 * next look (its next insert waits for the winner's commit) finds the winner's queue.
 */
export async function ensureQueue(boss: PgBoss, queue: string): Promise<void> {
  for (let tried = 1; ; tried++) {
    if (await boss.getQueue(queue)) return;
    try {
      await boss.createQueue(queue);
      return;
    } catch (error) {
      if (tried >= QUEUE_CREATE_TRIES) throw error;
    }
  }
}

const BOSS = Symbol.for("invoicing.job-queue");
type GlobalWithBoss = typeof globalThis & { [BOSS]?: Promise<PgBoss> };

/**
 * The process's pg-boss, started once (its first start creates or migrates its schema). Next's
 * bundle and server.ts share it through globalThis, as they share the database client.
 */
export function jobQueue(): Promise<PgBoss> {
  const g = globalThis as GlobalWithBoss;
  g[BOSS] ??= (async () => {
    // Loaded by the first job rather than by every module that can queue one (docs/testing.md#ci).
    const { default: PgBoss } = await import("pg-boss");
    // No cron schedules. Supervision stays on: every 15 s one process expires the jobs of a process
    // that died mid-job, so they are retried (a delivery's job expires 20 s after it was taken).
    const boss = new PgBoss({ db: clientExecutor(), schema: "pgboss", schedule: false, maintenanceIntervalSeconds: MAINTENANCE_SECONDS });
    boss.on("error", (error: unknown) => log.error({ err: error }, "Job queue error"));
    await withMigrationLock(async () => {
      await boss.start();
      for (const queue of QUEUES) await ensureQueue(boss, queue);
    });
    beforeDbClose(stopJobQueue);
    return boss;
  })().catch((error: unknown) => {
    delete g[BOSS];
    throw error;
  });
  return g[BOSS];
}

/** How many jobs wait in each queue (created or to retry, not yet taken): the metrics' queue depth. */
export async function queueDepths(): Promise<Record<string, number>> {
  const boss = await jobQueue();
  return Object.fromEntries(await Promise.all(QUEUES.map(async (queue) => [queue, await boss.getQueueSize(queue)] as const)));
}

/** Whether this process's job queue has started (and not stopped since): what the readiness probe asks. */
export async function jobQueueRunning(): Promise<boolean> {
  const started = (globalThis as GlobalWithBoss)[BOSS];
  if (!started) return false;
  return started.then(() => true).catch(() => false);
}

/** Stops the process's pg-boss (its workers finish the job in hand) before the database closes. */
export async function stopJobQueue(): Promise<void> {
  const g = globalThis as GlobalWithBoss;
  const started = g[BOSS];
  if (!started) return;
  delete g[BOSS];
  const boss = await started.catch(() => null);
  await boss?.stop({ graceful: true, wait: true, close: false, timeout: 15_000 });
  await unfinishedSettled();
}
