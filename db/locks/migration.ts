import { withSessionLock } from "./session";

// Any constant shared by every process of this service: schema changes run one process at a time.
const MIGRATION_LOCK = 727_301_001;
// True while this process holds the lock: its own nested calls (the job queue started by an alert
// that a migration's maintenance raised) run under it instead of waiting on themselves from a
// second connection. A flag of the process, not an AsyncLocalStorage: in Node 20 one that has run
// once leaves promise hooks on, and every later promise of the server pays for them.
let holding = false;

/**
 * Runs `run` while no other process of this service changes the schema: the committed migrations
 * and the job queue's own schema, which processes starting together on a new database would
 * otherwise both find missing and both create (the second failing on what the first made).
 */
export async function withMigrationLock<T>(run: () => Promise<T>): Promise<T> {
  if (holding) return run();
  return withSessionLock(MIGRATION_LOCK, async () => {
    holding = true;
    try {
      return await run();
    } finally {
      holding = false;
    }
  });
}
