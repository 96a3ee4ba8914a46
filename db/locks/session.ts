import type postgres from "postgres";
import { postgresClient } from "@/db";

/**
 * PostgreSQL session advisory locks, each held on a connection reserved for it, so no other process
 * of this service (another worker, another machine) runs the same work at the same time. The
 * embedded database has a single owning process, so there the work just runs.
 */
async function holdingLock<T, Skipped>(
  lock: number,
  take: (connection: postgres.ReservedSql) => Promise<boolean>,
  run: () => Promise<T>,
  skipped: Skipped,
): Promise<T | Skipped> {
  const sql = postgresClient();
  if (!sql) return run();
  const connection = await sql.reserve();
  try {
    if (!(await take(connection))) return skipped;
    try {
      return await run();
    } finally {
      await connection`select pg_advisory_unlock(${lock})`;
    }
  } finally {
    connection.release();
  }
}

/** Runs `run` once no other process holds `lock`, waiting for it. */
export function withSessionLock<T>(lock: number, run: () => Promise<T>): Promise<T> {
  return holdingLock(lock, async (connection) => (await connection`select pg_advisory_lock(${lock})`, true), run, undefined as never);
}

/** Runs `run` unless another process holds `lock`; then it does nothing and says so. */
export function trySessionLock(lock: number, run: () => Promise<void>): Promise<"ran" | "skipped"> {
  const take = async (connection: postgres.ReservedSql) => (await connection<{ locked: boolean }[]>`select pg_try_advisory_lock(${lock}) as locked`)[0]!.locked;
  return holdingLock(lock, take, async () => (await run(), "ran" as const), "skipped" as const);
}
