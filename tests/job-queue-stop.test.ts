import { sql } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { closeDb, getDb, poolApplicationName } from "@/db";
import { ensureQueue, jobQueue } from "@/db/job-queue";
import { openPostgres } from "@/db/postgres-url";
import { startJobWorker } from "@/lib/job-worker";
import { until } from "./helpers/eventually";

// A fetch is held in flight by a lock on pg-boss's job table, taken from a connection of the
// test's own: the embedded database has one connection, so this runs on PostgreSQL only.
describe.skipIf(!process.env.DATABASE_URL)("the job queue's stop, before the database closes", () => {
  it("waits for the jobs of a fetch that was in flight: they run on an open database and are completed", async () => {
    const boss = await jobQueue();
    const queue = `stop-${Date.now()}`;
    await ensureQueue(boss, queue);
    const jobId = await boss.send(queue, {});
    const observer = openPostgres({ max: 2, onnotice: () => {} });
    try {
      const holder = await observer.reserve();
      await holder`begin`;
      await holder`lock table pgboss.job in access exclusive mode`;
      const answered: string[] = [];
      await startJobWorker(
        queue,
        1,
        async () => {
          await getDb().execute(sql`select 1`);
          answered.push(queue);
          return "delivered";
        },
        () => "The test's job",
      );
      const fetchWaits = async () =>
        (
          await observer`select count(*)::int as waiting from pg_stat_activity where application_name = ${poolApplicationName()} and wait_event_type = 'Lock'`
        )[0]!.waiting > 0;
      expect(await until(fetchWaits, 15_000)).toBe(true);

      // pg-boss says it stopped while its fetch still waits; the lock goes only then.
      const stopped = new Promise((resolve) => boss.once("stopped", resolve));
      const closing = closeDb();
      await stopped;
      await holder`commit`;
      holder.release();
      await closing;

      expect(answered).toEqual([queue]);
      const [job] = await observer<{ state: string }[]>`select state from pgboss.job where id = ${jobId!}`;
      expect(job?.state).toBe("completed");
    } finally {
      await observer.end();
    }
  });
});
