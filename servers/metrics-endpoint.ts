import cluster from "node:cluster";
import { createHash, randomUUID, timingSafeEqual } from "node:crypto";
import type { IncomingMessage, ServerResponse } from "node:http";
import { AggregatorRegistry, type Registry } from "prom-client";
import { serviceMetrics } from "@/lib/metrics/service-metrics";

/**
 * GET /metrics (docs/operations.md#metrics): Prometheus text for the whole server, whichever
 * worker the scrape reaches. A worker asks the primary, which gathers every worker's registry
 * (prom-client's AggregatorRegistry over node:cluster's channel) and answers with the sum; a
 * server of one process answers from its own. Behind METRICS_TOKEN as a bearer token; unset, the
 * path is not served.
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
  const aggregator = new AggregatorRegistry();
  cluster.on("message", (worker, message: unknown) => {
    if (!isScrapeMessage(message, SCRAPE)) return;
    aggregator.clusterMetrics().then(
      (text) => worker.send({ type: SCRAPED, id: message.id, text }),
      (error: unknown) => worker.send({ type: SCRAPED, id: message.id, error: String(error) }),
    );
  });
}

/** In a worker: offers `registry` to the primary's gathering (prom-client answers its requests). */
export function offerWorkerMetrics(registry: Registry): void {
  AggregatorRegistry.setRegistries([registry]);
  new AggregatorRegistry();
}

function askPrimary(): Promise<string> {
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

/** Whether the request carries the token, compared in constant time (digests of equal length). */
function authorized(req: IncomingMessage, token: string): boolean {
  const [scheme, given] = (req.headers.authorization ?? "").split(" ");
  if (scheme?.toLowerCase() !== "bearer" || !given) return false;
  const digest = (text: string) => createHash("sha256").update(text).digest();
  return timingSafeEqual(digest(given), digest(token));
}

/** Answers GET /metrics when METRICS_TOKEN is set (true), or leaves the request to the server (false). */
export function answerMetrics(req: IncomingMessage, res: ServerResponse): boolean {
  const metrics = serviceMetrics();
  if (!metrics || (req.url ?? "").split("?")[0] !== "/metrics") return false;
  if (!authorized(req, process.env.METRICS_TOKEN!)) {
    res
      .writeHead(401, { "Content-Type": "text/plain", "WWW-Authenticate": 'Bearer realm="metrics"', "Cache-Control": "no-store" })
      .end("Send METRICS_TOKEN as a bearer token.\n");
    return true;
  }
  (cluster.isWorker ? askPrimary() : metrics.registry.metrics()).then(
    (text) => res.writeHead(200, { "Content-Type": metrics.registry.contentType, "Cache-Control": "no-store" }).end(text),
    (error: unknown) => {
      console.error("Serving /metrics failed", error);
      res.writeHead(500, { "Content-Type": "text/plain" }).end("The metrics could not be gathered; the server's log has the error.\n");
    },
  );
  return true;
}
