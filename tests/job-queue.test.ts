import { describe, expect, it } from "vitest";
import { sql } from "drizzle-orm";
import { getDb } from "@/db";
import { ensureQueue, jobQueue } from "@/db/job-queue";

describe("the job queue's queues", () => {
  it("are created once when several starts race to create the same one, none of them failing", async () => {
    const boss = await jobQueue();
    const queue = `race-${Date.now()}`;
    // Each call looks, finds nothing and creates, on a connection of its own: as processes starting together do.
    await expect(Promise.all(Array.from({ length: 4 }, () => ensureQueue(boss, queue)))).resolves.toHaveLength(4);
    expect((await boss.getQueues()).filter((found) => found.name === queue)).toHaveLength(1);
  });
});

describe("the job queue's statements on the shared client", () => {
  it("leave no connection inside a failed transaction: the pool's next queries all run", async () => {
    const boss = await jobQueue();
    // A text without values runs as pg-boss's migrations do: BEGIN … COMMIT on a connection of its own.
    await expect(boss.getDb().executeSql("begin; select 1 / 0; commit;", [])).rejects.toThrow(/division by zero/);
    const db = getDb();
    const results = await Promise.allSettled(Array.from({ length: 30 }, () => db.execute(sql`select pg_sleep(0.01)`)));
    expect(results.filter((result) => result.status === "rejected").map((result) => String((result as PromiseRejectedResult).reason))).toEqual([]);
  });
});
