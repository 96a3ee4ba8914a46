import postgres from "postgres";
import { beforeDbClose, poolApplicationName } from "@/db";
import { statementsInFlightNow } from "./driver-clients";
import { openPostgres } from "./postgres-url";

export interface PoolUsage {
  /** Connections of the pool PostgreSQL sees running a statement or inside a transaction. */
  used: number;
  /** Connections of the pool open and idle. */
  idle: number;
  /** Statements sent and not running: queued for a connection, or pipelined behind another on a busy one. */
  pending: number;
}

let reader: postgres.Sql | null = null;

/**
 * A connection of its own for reading the pool: a saturated pool is when the gauges matter, and a
 * read queued behind the statements it counts would answer late or not at all. Closed with the pool.
 */
function poolReader(): postgres.Sql {
  if (reader) return reader;
  const opened = openPostgres({
    max: 1,
    idle_timeout: 60,
    onnotice: () => {},
    connection: { application_name: "invoicing-service metrics" },
  });
  beforeDbClose(async () => {
    reader = null;
    await opened.end({ timeout: 5 });
  });
  return (reader = opened);
}

/**
 * The process's pool as PostgreSQL sees it (docs/operations.md#metrics): postgres.js does not
 * expose its connections, so they are read from pg_stat_activity by the process's application
 * name; what waits is what the process has in flight beyond what runs.
 */
export async function poolUsage(): Promise<PoolUsage> {
  const [row] = await poolReader().unsafe<{ used: number; idle: number }[]>(
    `select count(*) filter (where state <> 'idle')::int as used, count(*) filter (where state = 'idle')::int as idle
     from pg_stat_activity where application_name = $1`,
    [poolApplicationName()],
  );
  const { used, idle } = row ?? { used: 0, idle: 0 };
  return { used, idle, pending: Math.max(0, statementsInFlightNow() - used) };
}
