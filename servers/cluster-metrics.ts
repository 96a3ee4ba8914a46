import cluster from "node:cluster";
import { randomUUID } from "node:crypto";
import type { Registry } from "prom-client";

/**
 * One scrape over every worker of a server (docs/operations.md#metrics): the worker a scrape
 * reaches asks the primary, which gathers every worker's registry (prom-client's
 * AggregatorRegistry over node:cluster's channel) and answers with the sum. The primary loads only
 * this and prom-client: never the database drivers or the app.
 */

const SCRAPE = "invoicing:metrics-scrape";
const SCRAPED = "invoicing:metrics-scraped";
const SCRAPE_TIMEOUT_MS = 10_000;

interface ScrapeMessage {
  type: typeof SCRAPE | typeof SCRAPED;
  id: string;
  text?: string;
  error?: string;
}

const isScrapeMessage = (message: unknown, type: ScrapeMessage["type"]): message is ScrapeMessage =>
  typeof message === "object" && message !== null && (message as ScrapeMessage).type === type;

/** In the primary of a server on several workers: answers each worker's scrape with every worker's metrics. */
export function gatherWorkerMetrics(): void {
  if (!process.env.METRICS_TOKEN) return;
  // Loaded only when metrics are on: otherwise the primary holds node:cluster and little else (prom-client is 11 MB).
  const aggregator = import("prom-client").then(({ AggregatorRegistry }) => new AggregatorRegistry());
  cluster.on("message", (worker, message: unknown) => {
    if (!isScrapeMessage(message, SCRAPE)) return;
    aggregator
      .then((registry) => registry.clusterMetrics())
      .then(
        (text) => worker.send({ type: SCRAPED, id: message.id, text }),
        (error: unknown) => worker.send({ type: SCRAPED, id: message.id, error: String(error) }),
      );
  });
}

/** In a worker: offers `registry` to the primary's gathering (prom-client answers its requests). */
export async function offerWorkerMetrics(registry: Registry): Promise<void> {
  const { AggregatorRegistry } = await import("prom-client");
  AggregatorRegistry.setRegistries([registry]);
  new AggregatorRegistry();
}

/** In a worker: the whole server's metrics, from the primary. */
export function askPrimary(): Promise<string> {
  const id = randomUUID();
  return new Promise((resolve, reject) => {
    const answered = (message: unknown) => {
      if (!isScrapeMessage(message, SCRAPED) || message.id !== id) return;
      clearTimeout(timer);
      process.off("message", answered);
      if (message.error !== undefined) reject(new Error(`Gathering the workers' metrics failed: ${message.error}`));
      else resolve(message.text ?? "");
    };
    const timer = setTimeout(() => {
      process.off("message", answered);
      reject(new Error(`The primary did not answer a metrics scrape within ${SCRAPE_TIMEOUT_MS / 1000} s`));
    }, SCRAPE_TIMEOUT_MS);
    process.on("message", answered);
    process.send!({ type: SCRAPE, id });
  });
}
