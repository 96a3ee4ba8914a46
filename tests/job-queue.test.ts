import { describe, expect, it } from "vitest";
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
