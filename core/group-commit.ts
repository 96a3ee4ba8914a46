import { activeTracing } from "./tracing";

/** How many items one batch carries at most. */
const MAX_BATCH_ITEMS = 500;
/**
 * Batches being run at once by this process; the rest wait and grow. One: with a second batch
 * in flight, batches were half as large and the gateway bench lost 10-25 % of its throughput
 * (PostgreSQL 0.30-0.38 ms of CPU a request instead of 0.21-0.25, Node 0.44-0.59 instead of
 * 0.38-0.42): each statement's fixed cost (executor start, commit) is paid per batch.
 */
const MAX_BATCHES_IN_FLIGHT = 1;
// PostgreSQL's deadlock and serialization failures: the batch rolled back whole and may run again.
const RETRYABLE = new Set(["40P01", "40001"]);
const ATTEMPTS = 3;

/** Told of every batch a GroupCommit ran, whether it committed or failed (the metrics count them). */
export type BatchObserver = (batch: { name: string; size: number; seconds: number }) => void;

let batchObserver: BatchObserver | null = null;

/** Sets the process's one batch observer (null: none, the default). */
export function observeBatches(observer: BatchObserver | null): void {
  batchObserver = observer;
}

interface Waiting<In, Out> {
  item: In;
  /** The submitter's trace context while the process traces: the batch's span joins the first and links the others. */
  caller?: unknown;
  resolve: (result: Out) => void;
  reject: (error: unknown) => void;
}

/**
 * Group commit: every item submitted while a batch is running waits and goes out with the others
 * in the next one, so concurrent requests share one statement and one commit. There is no timer:
 * an item submitted alone runs at once. `run` gets a batch and answers with one result per item,
 * in order; a batch that fails fails each of its items with `describe`'s message and the cause.
 */
export class GroupCommit<In, Out> {
  private queue: Waiting<In, Out>[] = [];
  private inFlight = 0;

  constructor(
    /** What the batches are, for their observer: "admission", "request_log_write". */
    private readonly name: string,
    private readonly run: (items: In[]) => Promise<Out[]>,
    private readonly describe: (size: number) => string,
  ) {}

  submit(item: In): Promise<Out> {
    return new Promise((resolve, reject) => {
      this.queue.push({ item, resolve, reject, caller: activeTracing()?.captureContext() });
      this.pump();
    });
  }

  private pump(): void {
    while (this.inFlight < MAX_BATCHES_IN_FLIGHT && this.queue.length > 0) {
      const batch = this.queue.splice(0, MAX_BATCH_ITEMS);
      this.inFlight++;
      void this.flush(batch).finally(() => {
        this.inFlight--;
        this.pump();
      });
    }
  }

  private async flush(batch: Waiting<In, Out>[]): Promise<void> {
    const started = performance.now();
    const tracing = activeTracing();
    const settle = () => this.settle(batch);
    // A batch started by the one before it would otherwise run in that one's trace.
    await (tracing
      ? tracing.inBatchSpan(
          `${this.name} batch`,
          batch.map((waiting) => waiting.caller),
          { "invoicing.batch.size": batch.length },
          settle,
        )
      : settle());
    batchObserver?.({ name: this.name, size: batch.length, seconds: (performance.now() - started) / 1000 });
  }

  private async settle(batch: Waiting<In, Out>[]): Promise<void> {
    const items = batch.map(({ item }) => item);
    for (let attempt = 1; ; attempt++) {
      try {
        const results = await this.run(items);
        batch.forEach((waiting, i) => waiting.resolve(results[i]!));
        return;
      } catch (error) {
        if (attempt < ATTEMPTS && RETRYABLE.has((error as { code?: string }).code ?? "")) continue;
        const failure = new Error(this.describe(items.length), { cause: error });
        for (const waiting of batch) waiting.reject(failure);
        return;
      }
    }
  }
}
