import type { Job } from "pg-boss";
import { jobQueue, queueWork } from "@/db/job-queue";
import { log } from "@/core/log";
import { inSpan } from "@/core/tracing";

/** What one attempt of a job came to: done, not needed, to be tried again, or given up. */
export type Outcome = "delivered" | "retry" | "failed" | "skipped";

/**
 * The process's consumer of `queue`: up to `atOnce` jobs at a time, each attempted by `attempt`;
 * an attempt that asks for a retry (or throws) is handed back to pg-boss, which schedules the next
 * with the job's backoff. pg-boss shares the queue between processes: each job goes to one.
 */
export async function startJobWorker<T extends object>(
  queue: string,
  atOnce: number,
  attempt: (data: T, options: { lastRetry: boolean }) => Promise<Outcome>,
  describe: (data: T) => string,
): Promise<void> {
  const boss = await jobQueue();
  await boss.work<T>(queue, { batchSize: atOnce, includeMetadata: true, pollingIntervalSeconds: 1 } as never, (jobs: Job<T>[]) =>
    // The queue's stop waits for the jobs in hand: pg-boss's own wait misses those of a fetch in flight.
    queueWork(
      Promise.all(
        jobs.map(async (job) => {
          const meta = job as Job<T> & { retryCount: number; retryLimit: number };
          // Each attempt is a trace of its own while the process traces (docs/operations.md#traces).
          const attempted = inSpan(`process ${queue}`, () => attempt(job.data, { lastRetry: meta.retryCount >= meta.retryLimit }), {
            "messaging.system": "pg-boss",
            "messaging.destination.name": queue,
            "messaging.message.id": job.id,
            "invoicing.attempt": meta.retryCount + 1,
          });
          const outcome = await attempted.catch((error: unknown) => {
            log.error({ err: error, queue, jobId: job.id }, `${describe(job.data)} could not be attempted`);
            return "retry" as const;
          });
          if (outcome === "retry") await boss.fail(queue, job.id, { message: `${describe(job.data)} was not accepted; it is retried with backoff.` });
        }),
      ),
    ),
  );
}
