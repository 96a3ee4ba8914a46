import { databaseUrl, onServer } from "@/tests/setup/database-server";

/**
 * Points the process at a throwaway database before anything opens one (getDb() connects lazily):
 * with DATABASE_URL, a fresh `bench_<pid>` on that server, dropped by `drop()`; otherwise an
 * in-memory PGlite, so the bench never touches data/.
 */
export async function createBenchDatabase(): Promise<{ label: string; drop: () => Promise<void> }> {
  const serverUrl = process.env.DATABASE_URL;
  if (!serverUrl) {
    process.env.PGLITE_DIR = "memory://";
    return { label: "PGlite (in memory, same process)", drop: async () => {} };
  }
  const name = `bench_${process.pid}`;
  const url = databaseUrl(serverUrl, name);
  await onServer(serverUrl, `create database "${name}"`);
  process.env.DATABASE_URL = url;
  return {
    label: `PostgreSQL ${new URL(url).host}/${name}, pool ${process.env.DATABASE_POOL_SIZE ?? 10}`,
    drop: () => onServer(serverUrl, `drop database if exists "${name}" with (force)`),
  };
}
